# BookSim2's fat tree and ibrt's matching timing, sourced by studies/booksim-agreement.sh and
# bench/bench_booksim.sh so that the comparison and the speed benchmark run the same model
# (docs/results/booksim-agreement.md, "Timing": one cycle = 1024 ps, one-flit 64-byte packets,
# fly 1 cycle, credit delay 2 cycles, 16-packet buffers per VC).

# K N ROUTING VCS TRAFFIC RATE: BookSim's configuration (examples/fattree_config's router), then
# $BOOKSIM_EXTRA.
booksim_fattree_cfg() {
    cat <<CFG
topology = fattree; k = $1; n = $2; routing_function = $3;
num_vcs = $4; vc_buf_size = 16; packet_size = 1; injection_rate_uses_flits = 1;
wait_for_tail_credit = 0; hold_switch_for_packet = 1;
vc_allocator = separable_input_first; sw_allocator = separable_input_first; alloc_iters = 1;
credit_delay = 2; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1;
input_speedup = 1; output_speedup = 1; internal_speedup = 1.0;
traffic = $5; injection_rate = $6; sim_type = latency;
warmup_periods = 3; sample_period = 2000; sim_count = 1; max_samples = 10; priority = none;
${BOOKSIM_EXTRA:-}
CFG
}

# ROUTING_NS: ibrt's options for the same timing (the routing delay is BookSim's allocation
# pipeline, 3 cycles by default).
ibrt_fattree_timing() {
    echo "--packet-bytes 64 --credit-unit 64 --ns-per-byte 0.016 --fly-ns 1.024 --routing-ns $1" \
        "--credit-delay-ns 2.048 --buffer-bytes 1024"
}
