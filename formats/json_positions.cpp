// The SAX pass of json_positions; see json_positions.hpp.
#include "formats/json_positions.hpp"

#include "fabric/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

namespace ibrt {

using json = nlohmann::json;

std::string json_child(const std::string& at, std::string_view key) {
    std::string s = at + '/';
    for (const char c : key) {
        if (c == '~')
            s += "~0";
        else if (c == '/')
            s += "~1";
        else
            s += c;
    }
    return s;
}

std::string json_child(const std::string& at, std::size_t i) {
    return at + '/' + std::to_string(i);
}

int line_of_offset(const std::string& text, std::size_t off) {
    off = std::min(off, text.size());
    return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(off), '\n'));
}

std::string json_error_text(const json::exception& e) {
    std::string s = e.what();
    if (s.rfind("[json.exception.", 0) == 0)
        if (const auto b = s.find("] "); b != std::string::npos) s.erase(0, b + 2);
    if (s.rfind("parse error at line ", 0) == 0) {
        const auto c = s.find(", column "), d = s.find(": ");
        if (c != std::string::npos && d != std::string::npos && c < d)
            s = s.substr(d + 2) + " (column " + s.substr(c + 9, d - c - 9) + ")";
    } else if (s.rfind("parse error: ", 0) == 0) {
        s.erase(0, 13);
    }
    return s;
}

namespace {

// A character iterator that says how far the parser has read: at each SAX event, the text up
// to the end of the token just read (a number's, one character more).
class CountingIterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    CountingIterator(const char* p, const char* begin, std::size_t* read)
        : p_(p), begin_(begin), read_(read) {}
    reference operator*() const { return *p_; }
    CountingIterator& operator++() {
        ++p_;
        *read_ = std::size_t(p_ - begin_);
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator t = *this;
        ++*this;
        return t;
    }
    bool operator==(const CountingIterator& o) const { return p_ == o.p_; }

  private:
    const char* p_;
    const char* begin_;
    std::size_t* read_;
};

class Locator {
  public:
    Locator(const std::size_t& read, std::size_t max_depth) : read_(read), max_depth_(max_depth) {}

    std::map<std::string, std::size_t> where; // pointer -> its key's offset (else its value's)
    std::string problem, problem_at;          // why the pass stopped, and where
    std::size_t problem_offset = 0;

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(json::number_integer_t) { return value(); }
    bool number_unsigned(json::number_unsigned_t) { return value(); }
    bool number_float(json::number_float_t, const json::string_t&) { return value(); }
    bool string(json::string_t&) { return value(); }
    bool binary(json::binary_t&) { return value(); }
    bool start_object(std::size_t) { return open(false); }
    bool start_array(std::size_t) { return open(true); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k) {
        Frame& f = stack_.back();
        f.key = k;
        const std::string p = json_child(f.path, k);
        if (where.emplace(p, here()).second) return true;
        return stop(p, "the key is given twice in this object (JSON keeps one of them)");
    }
    bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
        problem = "not JSON: " + json_error_text(e);
        problem_offset = position ? position - 1 : 0;
        return false;
    }

  private:
    struct Frame {
        std::string path;
        bool array = false;
        std::size_t next = 0;
        std::string key;
    };
    std::size_t here() const { return read_ ? read_ - 1 : 0; }
    bool stop(const std::string& at, const std::string& why) {
        problem_at = at;
        problem = why;
        problem_offset = here();
        return false;
    }
    // The pointer of the value that starts now. Array elements and the root are recorded
    // here; an object's members at their key.
    std::string start() {
        if (stack_.empty()) {
            where.emplace("", here());
            return "";
        }
        Frame& f = stack_.back();
        if (!f.array) return json_child(f.path, f.key);
        std::string p = json_child(f.path, f.next++);
        where.emplace(p, here());
        return p;
    }
    bool value() {
        start();
        return true;
    }
    bool open(bool array) {
        std::string p = start();
        if (stack_.size() >= max_depth_)
            return stop(p, fmt::format("nested more than {} deep", max_depth_));
        stack_.push_back(Frame{std::move(p), array});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    const std::size_t& read_;
    std::size_t max_depth_;
    std::vector<Frame> stack_;
};

} // namespace

std::map<std::string, std::size_t> json_positions(const std::string& text, const std::string& file,
                                                  std::size_t max_depth) {
    std::size_t read = 0;
    Locator loc(read, max_depth);
    const CountingIterator first(text.data(), text.data(), &read),
        last(text.data() + text.size(), text.data(), &read);
    if (!json::sax_parse(first, last, &loc)) {
        if (loc.problem.empty()) loc.problem = "not JSON";
        throw InputError(file, line_of_offset(text, loc.problem_offset),
                         loc.problem_at.empty() ? loc.problem
                                                : loc.problem_at + ": " + loc.problem);
    }
    return std::move(loc.where);
}

int json_line(const std::string& text, const std::map<std::string, std::size_t>& where,
              std::string pointer) {
    for (;;) {
        if (const auto it = where.find(pointer); it != where.end())
            return line_of_offset(text, it->second);
        if (pointer.empty()) return 0;
        pointer.erase(pointer.rfind('/'));
    }
}

} // namespace ibrt
