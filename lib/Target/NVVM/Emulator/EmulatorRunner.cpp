//===- EmulatorRunner.cpp - mxq's GPU kernels run by the SIMT emulator ----===//
#include "mxq/Target/NVVM/EmulatorRunner.h"
#include "mxq/Runtime/Descriptors.h"
#include "mxq/Target/NVVM/NVVMTarget.h"
#include "mxq/Target/NVVM/SIMTEmulator.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <chrono>
#include <cstring>

using namespace mlir;

namespace mxq {

struct EmulatorExecutable::Impl : detail::CompiledEntry {
  std::unique_ptr<simt::Session> session;
  bool profile = false;
  std::string report;
  EmulatorProfile totals;
};

EmulatorExecutable::~EmulatorExecutable() = default;

std::unique_ptr<EmulatorExecutable>
EmulatorExecutable::compile(ModuleOp module, const std::string &entry,
                            const std::string &chip, int ptx, bool profile,
                            std::string &error) {
  auto impl = std::make_unique<Impl>();
  impl->entry = entry;
  impl->profile = profile;
  if (!detail::prepareEntry(module, entry, impl->resultRanks,
                            impl->resultElementTypes, error))
    return nullptr;
  if (!detail::lowerModule(
          module,
          [&](OpPassManager &pm) {
            GPUPipelineOptions options;
            options.chip = chip;
            options.ptx = ptx;
            options.format = "emulator";
            buildGPUPipeline(pm, options);
            return success();
          },
          "the GPU pipeline (for the emulator) failed for " + chip, error))
    return nullptr;
  std::vector<std::string> sites;
  std::vector<bool> stores;
  if (auto a = module->getAttrOfType<ArrayAttr>("mxq.emu.sites"))
    for (Attribute s : a)
      sites.push_back(cast<StringAttr>(s).str());
  if (auto a = module->getAttrOfType<DenseBoolArrayAttr>("mxq.emu.stores"))
    stores.assign(a.asArrayRef().begin(), a.asArrayRef().end());
  module->removeAttr("mxq.emu.sites");
  module->removeAttr("mxq.emu.stores");
  impl->session = std::make_unique<simt::Session>(sites, stores);
  impl->session->setProfiling(profile);
  auto engine = detail::jitCompile(module, 2, {}, error);
  if (!engine)
    return nullptr;
  detail::registerSymbols(*engine, simt::symbols());
  impl->engine = std::move(engine);
  std::unique_ptr<EmulatorExecutable> exe(new EmulatorExecutable());
  exe->impl = std::move(impl);
  return exe;
}

namespace {

/// One call of the entry on emulated device copies of `inputs`; frees every
/// buffer but the results', whose descriptors land in `resultStruct`.
bool call(EmulatorExecutable::Impl &impl, const std::vector<RawTensor> &inputs,
          std::vector<void *> &device, std::vector<int64_t> &resultStruct,
          std::string &error) {
  simt::Session &session = *impl.session;
  device.clear();
  for (const RawTensor &t : inputs) {
    void *p = session.allocate(t.data.size());
    if (!p) {
      error = "the emulator cannot allocate " +
              std::to_string(t.data.size()) + " bytes for an input";
      return false;
    }
    if (!t.data.empty())
      std::memcpy(p, t.data.data(), t.data.size());
    device.push_back(p);
  }
  resultStruct.assign(detail::resultWords(impl.resultRanks), 0);
  void *resultPtr = resultStruct.data();
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t i = 0; i < inputs.size(); ++i)
    descriptors.push_back(detail::descriptor(device[i], inputs[i].shape));
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  if (!impl.resultRanks.empty())
    args.push_back(&resultPtr);
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  session.takeError();
  if (llvm::Error e =
          impl.engine->invokePacked("_mlir_ciface_" + impl.entry, args)) {
    error = "cannot call @" + impl.entry + ": " + llvm::toString(std::move(e));
    return false;
  }
  std::string failure = session.takeError();
  if (!failure.empty()) {
    error = "@" + impl.entry + " failed on the SIMT emulator: " + failure;
    return false;
  }
  return true;
}

void freeAll(EmulatorExecutable::Impl &impl, std::vector<void *> &device,
             const std::vector<int64_t> &resultStruct, bool results) {
  if (results)
    for (void *p : detail::resultAllocations(resultStruct, impl.resultRanks,
                                             device))
      impl.session->release(p);
  for (void *p : device)
    impl.session->release(p);
  device.clear();
}

} // namespace

bool EmulatorExecutable::run(const std::vector<RawTensor> &inputs,
                             std::vector<RawTensor> &results,
                             std::string &error) {
  simt::Activation active(*impl->session);
  impl->session->clearProfile();
  std::vector<void *> device;
  std::vector<int64_t> resultStruct;
  if (!call(*impl, inputs, device, resultStruct, error)) {
    // Results of a failed call may be half-made: free only the inputs.
    freeAll(*impl, device, resultStruct, /*results=*/false);
    return false;
  }
  detail::copyResults(
      resultStruct, impl->resultRanks, impl->resultElementTypes,
      [](void *dst, const uint8_t *src, size_t n) { std::memcpy(dst, src, n); },
      results);
  freeAll(*impl, device, resultStruct, /*results=*/true);
  if (impl->profile) {
    uint64_t read = 0, written = 0;
    for (const RawTensor &t : inputs)
      read += t.data.size();
    for (const RawTensor &t : results)
      written += t.data.size();
    impl->report = impl->session->report(read, written);
    EmulatorProfile &t = impl->totals;
    t = EmulatorProfile();
    for (auto &[key, site] : impl->session->sites()) {
      if (site.idealWavefronts) {
        t.sharedRequests += site.requests;
        t.bankConflicts += site.wavefronts - site.idealWavefronts;
      } else if (key.second < impl->session->siteStore.size() &&
                 impl->session->siteStore[key.second]) {
        t.storeSectors += site.sectors;
        t.storeMinSectors += site.minSectors;
      } else {
        t.loadSectors += site.sectors;
        t.loadMinSectors += site.minSectors;
      }
    }
    t.bytesRead = impl->session->globalBytesRead();
    t.bytesWritten = impl->session->globalBytesWritten();
    t.inputBytes = read;
    t.resultBytes = written;
  }
  return true;
}

bool EmulatorExecutable::time(const std::vector<RawTensor> &inputs, int repeat,
                              Timing &timing, std::string &error) {
  std::vector<RawTensor> results;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; ++i)
    if (!run(inputs, results, error))
      return false;
  auto stop = std::chrono::steady_clock::now();
  timing.wallMillis =
      std::chrono::duration<double, std::milli>(stop - start).count() /
      std::max(1, repeat);
  timing.deviceMillis = 0;
  return true;
}

std::string EmulatorExecutable::report() const { return impl->report; }

const EmulatorProfile &EmulatorExecutable::profile() const {
  return impl->totals;
}

} // namespace mxq
