// Where each value of a JSON input is: the sweep spec (sweep/sweep_spec.hpp) and `ibrt plot`'s
// figure (tools/figure_file.hpp) name the file, the line and the value's JSON pointer in every
// error. nlohmann::json 3.11 keeps no positions, so a SAX pass over the text records the offset
// of every value by its JSON pointer (RFC 6901); the same pass finds a key given twice in one
// object, which the parser would silently drop.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace ibrt {

// The offset in `text` of every value by its JSON pointer: "" the root, an array element at the
// element, an object member at its key. Throws InputError(file, line, problem) when the text is
// not JSON (nlohmann's reason and column), when an object gives a key twice, or when values nest
// more than `max_depth` deep (nlohmann's checks, copies and dumps recurse, so a deeper text is
// refused before it is parsed into values).
std::map<std::string, std::size_t> json_positions(const std::string& text, const std::string& file,
                                                  std::size_t max_depth);

// The line (from 1) of the value at `pointer`, else of the nearest value it is in (a missing
// key: the line of its object); 0 when `where` knows none of them.
int json_line(const std::string& text, const std::map<std::string, std::size_t>& where,
              std::string pointer);

// The pointer of a member or an element of the value at `at` ("~" and "/" escaped).
std::string json_child(const std::string& at, std::string_view key);
std::string json_child(const std::string& at, std::size_t i);

// The line (from 1) of a byte offset.
int line_of_offset(const std::string& text, std::size_t offset);

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line L,
// column C: " prefix (InputError says the file and line): the problem, then the column.
std::string json_error_text(const nlohmann::json::exception& e);

} // namespace ibrt
