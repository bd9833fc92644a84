//===- Target.h - the interface every mxq target implements -----*- C++ -*-===//
//
// A target is one folder (lib/Target/<Name>, include/mxq/Target/<Name>)
// behind this interface: the dialects and passes its pipeline needs, the
// pipeline itself, and an executable kind (compile a function, run it on
// caller buffers, time it). Tools, benches and tests find targets here, by
// name; shared code never names one. docs/Rationale.md, "Targets", has the
// checklist for adding one.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_TARGET_H
#define MXQ_TARGET_TARGET_H

#include "mxq/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringRef.h"

#include <functional>

#include <memory>
#include <string>
#include <vector>

namespace mxq {

/// What a compile may be asked for. Each target reads the fields it knows
/// and rejects (checkOptions) a field it does not take.
struct TargetOptions {
  /// The chip (target-specific name; empty: the target's default).
  std::string chip;
  /// An ISA version of the chip (target-specific; 0: the chip's default).
  int isaVersion = 0;
  /// Tile sizes for mxq-tile (empty: the target's defaults).
  std::vector<int64_t> tileSizes;
  /// Measure what the executable does (a target that cannot says so).
  bool profile = false;
  /// Threads to run on (0: every core; a target that runs on one thread
  /// rejects any other count).
  int threads = 0;
  /// Where to write a trace of the run (a target that cannot says so).
  std::string trace;
  /// Reuse code this process compiled before for the same function text and
  /// options (targets without a cache compile every time).
  bool cache = true;
};

/// Time of one call of an executable.
/// Takes result `index`; false and a sentence in `error` to stop.
using ResultSink = llvm::function_ref<bool(unsigned index, const ResultView &,
                                           std::string &error)>;

struct Timing {
  double wallMillis = 0;   ///< wall-clock time per call
  double deviceMillis = 0; ///< device (kernel) time per call, 0 if none
};

/// A function compiled for a target.
class Executable {
public:
  virtual ~Executable();
  /// Runs the function on `inputs` (row-major, caller-owned) and copies the
  /// results out; false and a sentence in `error` on failure.
  virtual bool run(const std::vector<RawTensor> &inputs,
                   std::vector<RawTensor> &results, std::string &error) = 0;
  /// Runs the function and hands each result to `sink` where it lies, so
  /// that a caller who writes results out holds no copy of them (a target
  /// whose results must be copied out anyway runs `run`).
  virtual bool runInto(const std::vector<RawTensor> &inputs, ResultSink sink,
                       std::string &error);
  /// Runs the function `repeat` times and reports the time per call (a
  /// target may add a warm-up call; callers that want one make it).
  virtual bool time(const std::vector<RawTensor> &inputs, int repeat,
                    Timing &timing, std::string &error) = 0;
  /// What the last run measured, as text, when compiled with
  /// TargetOptions::profile (empty otherwise).
  virtual std::string report() const { return {}; }

protected:
  /// `time` for an executable whose calls run on the host: `repeat` runs
  /// (at least one), the wall-clock time per call in `timing.wallMillis`.
  bool timeRuns(const std::vector<RawTensor> &inputs, int repeat,
                Timing &timing, std::string &error);
};

class Target {
public:
  virtual ~Target();
  /// The name `mxq-run --target=` takes (lower case).
  virtual llvm::StringRef name() const = 0;
  /// One line for lists of targets.
  virtual llvm::StringRef description() const = 0;
  /// The dialects, interface models and translations its pipeline needs.
  virtual void registerDialects(mlir::DialectRegistry &registry) const {}
  /// Its passes and pipelines (what mxq-opt offers).
  virtual void registerPasses() const {}
  /// Whether its executables can run on this machine; else a sentence why.
  virtual bool canRun(std::string &why) const { return true; }
  /// Rejects options the target does not take; a sentence in `error`.
  virtual bool checkOptions(const TargetOptions &options,
                            std::string &error) const;
  /// Compiles `entry` of `module` (which it may change in place).
  virtual std::unique_ptr<Executable> compile(mlir::ModuleOp module,
                                              const std::string &entry,
                                              const TargetOptions &options,
                                              std::string &error) const = 0;
  /// Compiles `entry` ahead of time into a loadable library at `path`;
  /// targets that cannot say so.
  virtual bool emitLibrary(mlir::ModuleOp module, const std::string &entry,
                           const TargetOptions &options,
                           const std::string &path, std::string &error) const;
};

/// Adds `target` to the registry (a second target of the same name is
/// ignored).
void registerTarget(std::unique_ptr<Target> target);
/// The target called `name`, or null.
const Target *lookupTarget(llvm::StringRef name);
/// The target called `name`, or null and a one-line `error` that lists the
/// targets this build has.
const Target *lookupTarget(llvm::StringRef name, std::string &error);
/// Every registered target, in registration order.
std::vector<const Target *> registeredTargets();
/// The names of every registered target, comma-separated.
std::string targetNames();

/// Registers a target's pipeline `arg` (an mxq-opt flag and a
/// --pass-pipeline element) whose options are `Options`. Every error is a
/// diagnostic naming the pipeline, never an abort: options that do not
/// parse or are given without a value, nesting under anything but
/// builtin.module, and whatever `build` rejects (it returns false and a
/// sentence).
template <typename Options>
void registerTargetPipeline(
    llvm::StringRef arg, llvm::StringRef description,
    std::function<bool(mlir::OpPassManager &, const Options &, std::string &)>
        build) {
  std::string name = arg.str();
  mlir::registerPassPipeline(
      arg, description,
      [name, build](mlir::OpPassManager &pm, llvm::StringRef optionsStr,
                    llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                        errorHandler) -> llvm::LogicalResult {
        // An option written without a value ("tile-sizes=") would otherwise
        // read as its default.
        for (size_t at = optionsStr.find('='); at != llvm::StringRef::npos;
             at = optionsStr.find('=', at + 1))
          if (at + 1 == optionsStr.size() || optionsStr[at + 1] == ' ') {
            size_t start = optionsStr.rfind(' ', at);
            start = start == llvm::StringRef::npos ? 0 : start + 1;
            return errorHandler(name + ": the option '" +
                                optionsStr.slice(start, at) +
                                "' is given no value");
          }
        Options options;
        if (mlir::failed(options.parseFromString(optionsStr)))
          return errorHandler(name + ": cannot parse the options '" +
                              optionsStr + "'");
        if (pm.getOpAnchorName() != mlir::ModuleOp::getOperationName())
          return errorHandler(name +
                              " runs on builtin.module, but it was "
                              "nested under '" +
                              pm.getOpAnchorName() + "'");
        std::string error;
        if (!build(pm, options, error))
          return errorHandler(name + ": " + error);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(Options());
      });
}

/// Registers every target this build has (the CMake list MXQ_TARGETS); safe
/// to call more than once.
void registerAllTargets();

} // namespace mxq

#endif // MXQ_TARGET_TARGET_H
