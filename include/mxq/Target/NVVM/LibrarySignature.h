//===- LibrarySignature.h - the .sig file beside an AOT library -*- C++ -*-===//
//
// `mxq-run --target=nvvm --emit-library F.so` writes F.so.sig; mxq-gpu-launch
// reads it. One line per fact: "entry NAME", "chip sm_90a", then
// "arg RANK TYPE" per argument and "result RANK TYPE" per result, in order
// (TYPE in MLIR spelling, see mxq/Support/ElementTypes.h). The same text is
// inside the library, as the string `kSymbol`, so that the launcher can tell
// a .sig that belongs to another library (whose descriptors it would pass
// to the wrong code) from the one written with it. Plain C++: the launcher
// has no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_LIBRARYSIGNATURE_H
#define MXQ_TARGET_NVVM_LIBRARYSIGNATURE_H

#include <cstdint>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace mxq::nvvm {

struct LibrarySignature {
  /// The library's own copy of its signature: a NUL-terminated string, the
  /// .sig file's text.
  static constexpr const char *kSymbol = "mxq_library_signature";

  struct Tensor {
    int64_t rank = 0;
    std::string type; ///< "bf16", "f8E4M3FN", ...
  };
  std::string entry, chip;
  std::vector<Tensor> args, results;

  /// The text of the .sig file.
  std::string str() const {
    std::string s = "entry " + entry + "\nchip " + chip + "\n";
    for (const Tensor &t : args)
      s += "arg " + std::to_string(t.rank) + " " + t.type + "\n";
    for (const Tensor &t : results)
      s += "result " + std::to_string(t.rank) + " " + t.type + "\n";
    return s;
  }

  /// The text on one line (facts separated by "; "), for diagnostics.
  std::string oneLine() const {
    std::string s = str(), r;
    for (char c : s)
      r += c == '\n' ? std::string("; ") : std::string(1, c);
    if (r.size() >= 2)
      r.resize(r.size() - 2);
    return r;
  }

  /// Reads a .sig file; false and the offending line (or a sentence) in
  /// `error` if it is not one.
  static bool parse(std::istream &file, LibrarySignature &sig,
                    std::string &error) {
    std::string line;
    while (std::getline(file, line)) {
      std::istringstream in(line);
      std::string kind;
      in >> kind;
      Tensor t;
      if (kind == "entry")
        in >> sig.entry;
      else if (kind == "chip")
        in >> sig.chip;
      else if (kind == "arg" && (in >> t.rank >> t.type))
        sig.args.push_back(t);
      else if (kind == "result" && (in >> t.rank >> t.type))
        sig.results.push_back(t);
      else if (!kind.empty()) {
        error = "a line it does not know: '" + line + "'";
        return false;
      }
    }
    if (sig.entry.empty()) {
      error = "no entry";
      return false;
    }
    return true;
  }
};

} // namespace mxq::nvvm

#endif // MXQ_TARGET_NVVM_LIBRARYSIGNATURE_H
