// The opensm 3.3.23 headers, included the one way that works from C++
// (shared/notes/opensm-plugin-api.md §5.4, pitfalls 11-12):
//  - osm_config.h first: it defines ENABLE_OSM_PERF_MGR, which changes osm_opensm_t's layout;
//  - osm_event_plugin.h has a struct member named `delete`, so the keyword is renamed while
//    the C headers are read (std headers must already be included by then);
//  - a bare FDR10 macro is removed again;
//  - several headers lack extern "C", so all of them are wrapped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define delete delete_cb
extern "C" {
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_node.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>
}
#undef delete
// ib_types.h defines FDR10 as a bare macro, which would rewrite ibrt::LinkSpeed::FDR10.
#undef FDR10
