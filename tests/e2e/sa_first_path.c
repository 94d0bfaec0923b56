/*
 * sa_first_path: the PathRecord an application gets for each pair of ports, many pairs in one
 * process. Reads "SRC_PORT_GUID DST_PORT_GUID" (hex) lines from FILE and prints
 * "SRC DST SLID DLID SL" for each (or "SRC DST none" when the SA has no path).
 *
 * Why not saquery: a process per query costs ~25 ms under ibsim (umad2sim sets up a fake sysfs
 * per client), and test_sa_path_selection.sh asks for 16,256 pairs. The query is libibmad's
 * ib_path_query_via(): a SubnAdmGet of a PathRecord by SGID and DGID, NumbPath 1, which is
 * what rdma_cm and ibacm send: the SA chooses the LIDs and returns one record.
 *
 *   cc -o sa_first_path sa_first_path.c -libmad
 *   LD_PRELOAD=libumad2sim.so ./sa_first_path FILE
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mad.h>

/* The link-local GID of a port: prefix fe80::/64, then the port GUID, big-endian. */
static void port_gid(uint64_t guid, ibmad_gid_t gid)
{
	int i;

	memset(gid, 0, sizeof(ibmad_gid_t));
	gid[0] = 0xfe;
	gid[1] = 0x80;
	for (i = 0; i < 8; i++)
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
}

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	struct ibmad_port *port;
	ib_portid_t sm = { 0 };
	uint64_t src, dst;
	FILE *in;

	if (argc != 2 || !(in = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: sa_first_path FILE (of SRC DST port GUID lines)\n");
		return 2;
	}
	port = mad_rpc_open_port(NULL, 0, classes, 3);
	if (!port) {
		fprintf(stderr, "sa_first_path: cannot open the port\n");
		return 2;
	}
	if (ib_resolve_smlid_via(&sm, 0, port) < 0) {
		fprintf(stderr, "sa_first_path: cannot find the SM's LID\n");
		return 2;
	}
	while (fscanf(in, "%" SCNx64 " %" SCNx64, &src, &dst) == 2) {
		ibmad_gid_t sgid, dgid;
		uint8_t rec[IB_SA_DATA_SIZE] = { 0 };
		int dlid;

		port_gid(src, sgid);
		port_gid(dst, dgid);
		dlid = ib_path_query_via(port, sgid, dgid, &sm, rec);
		if (dlid <= 0)
			printf("0x%016" PRIx64 " 0x%016" PRIx64 " none\n", src, dst);
		else
			printf("0x%016" PRIx64 " 0x%016" PRIx64 " %u %d %u\n", src, dst,
			       mad_get_field(rec, 0, IB_SA_PR_SLID_F), dlid,
			       mad_get_field(rec, 0, IB_SA_PR_SL_F));
	}
	mad_rpc_close_port(port);
	fclose(in);
	return 0;
}
