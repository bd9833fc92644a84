//===- Target.cpp - the target registry -----------------------------------===//
#include "mxq/Target/Target.h"

#include "llvm/ADT/STLExtras.h"

#include <chrono>

namespace mxq {

Executable::~Executable() = default;

bool Executable::runInto(const std::vector<RawTensor> &inputs, ResultSink sink,
                         std::string &error) {
  std::vector<RawTensor> results;
  if (!run(inputs, results, error))
    return false;
  for (unsigned k = 0; k < results.size(); ++k)
    if (!sink(k, {results[k].elementType, results[k].shape, results[k].data},
              error))
      return false;
  return true;
}

bool Executable::timeRuns(const std::vector<RawTensor> &inputs, int repeat,
                          Timing &timing, std::string &error) {
  std::vector<RawTensor> results;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < std::max(repeat, 1); ++i)
    if (!run(inputs, results, error))
      return false;
  std::chrono::duration<double, std::milli> ms =
      std::chrono::steady_clock::now() - start;
  timing.wallMillis = ms.count() / std::max(repeat, 1);
  return true;
}
Target::~Target() = default;

static std::vector<std::unique_ptr<Target>> &registry();

/// The registered targets that accept an option (`set` puts it into empty
/// options), for a diagnostic that points to them without shared code
/// naming a target: "cpu", "nvvm-emu and ascend".
static std::string takers(llvm::function_ref<void(TargetOptions &)> set) {
  // A target's checkOptions calls Target::checkOptions for the options it
  // does not take: no second query from inside the first.
  static thread_local bool asking = false;
  if (asking)
    return "";
  asking = true;
  std::vector<std::string> names;
  for (const auto &t : registry()) {
    TargetOptions one;
    set(one);
    std::string ignored;
    if (t->checkOptions(one, ignored))
      names.push_back(t->name().str());
  }
  asking = false;
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return list;
}

bool Target::checkOptions(const TargetOptions &options,
                          std::string &error) const {
  std::string n = name().str();
  auto forWhom = [](const char *flag, const std::string &list) {
    return list.empty() ? std::string()
                        : " (" + std::string(flag) + " is for " + list + ")";
  };
  if (!options.chip.empty())
    error =
        "target " + n + " takes no chip, but --chip is '" + options.chip + "'";
  else if (options.isaVersion)
    error = "target " + n + " takes no ISA version, but one is " +
            std::to_string(options.isaVersion);
  else if (!options.tileSizes.empty())
    error = "target " + n + " takes no tile sizes";
  else if (options.threads != 0)
    error = "target " + n + " takes no thread count" +
            forWhom("--num-threads",
                    takers([](TargetOptions &o) { o.threads = 2; }));
  else if (options.profile)
    error = "target " + n + " has no profile" +
            forWhom("--profile",
                    takers([](TargetOptions &o) { o.profile = true; }));
  else if (!options.trace.empty())
    error = "target " + n + " writes no trace" +
            forWhom("--trace",
                    takers([](TargetOptions &o) { o.trace = "trace.json"; }));
  return error.empty();
}

bool Target::emitLibrary(mlir::ModuleOp, const std::string &,
                         const TargetOptions &, const std::string &,
                         std::string &error) const {
  error = "target " + name().str() + " cannot compile ahead of time";
  return false;
}

static std::vector<std::unique_ptr<Target>> &registry() {
  static std::vector<std::unique_ptr<Target>> targets;
  return targets;
}

void registerTarget(std::unique_ptr<Target> target) {
  if (lookupTarget(target->name()))
    return;
  registry().push_back(std::move(target));
}

const Target *lookupTarget(llvm::StringRef name) {
  for (const auto &t : registry())
    if (t->name() == name)
      return t.get();
  return nullptr;
}

const Target *lookupTarget(llvm::StringRef name, std::string &error) {
  if (const Target *t = lookupTarget(name))
    return t;
  error = "unknown target '" + name.str() +
          "' (this build has: " + targetNames() + ")";
  return nullptr;
}

std::vector<const Target *> registeredTargets() {
  std::vector<const Target *> out;
  for (const auto &t : registry())
    out.push_back(t.get());
  return out;
}

std::string targetNames() {
  std::string out;
  for (const auto &t : registry())
    out += (out.empty() ? "" : ", ") + t->name().str();
  return out;
}

} // namespace mxq
