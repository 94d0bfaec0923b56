// The one error type for bad input: every reader throws it with the file and line, so the
// CLI can print `file:line: problem` and exit 2, and the opensm adapter can log it. The file
// name and the problem are passed through printable(), so a fragment of a binary file quoted
// in a message never reaches the terminal as raw bytes.
#pragma once

#include "fabric/printable.hpp"

#include <stdexcept>
#include <string>

namespace ibrt {

class InputError : public std::runtime_error {
  public:
    InputError(std::string file, int line, const std::string& problem)
        : std::runtime_error(format(file, line, problem)), file_(std::move(file)), line_(line),
          problem_(printable(problem)) {}
    const std::string& file() const { return file_; }
    int line() const { return line_; } // 0 when the problem is not tied to one line
    const std::string& problem() const { return problem_; }

  private:
    static std::string format(const std::string& file, int line, const std::string& problem) {
        std::string s = file.empty() ? std::string("<input>") : printable(file);
        if (line > 0) s += ":" + std::to_string(line);
        return s + ": " + printable(problem);
    }
    std::string file_;
    int line_;
    std::string problem_;
};

} // namespace ibrt
