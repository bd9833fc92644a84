//===- DMA.cpp - DataCopyPad between GM and UB ----------------------------===//
#include "Machine.h"

namespace mxq::vtile::sim {

bool Simulator::globalRange(Operation *op, Value memref, int64_t offset, int64_t bytes,
                            uint8_t *&data) {
  auto it = memrefs.find(memref);
  if (it == memrefs.end())
    return fail(op, "takes GM that is not a kernel argument");
  const GlobalBuffer &buffer = gm[it->second];
  if (offset < 0 || bytes < 0 || offset + bytes > buffer.bytes)
    return fail(op, "touches GM bytes [" + llvm::Twine(offset) + ", " +
                        llvm::Twine(offset + bytes) + ") of a " +
                        llvm::Twine(buffer.bytes) + "-byte buffer");
  data = buffer.data;
  return true;
}

double Simulator::scheduleDMA(Operation *op, int pipe, double ready, int64_t bursts,
                              int64_t bytes, bool read) {
  double share =
      chip.gmBytesPerCycle() / double(std::max<int64_t>(numCores, 1));
  double cap = read ? chip.dmaReadCap : chip.dmaWriteCap;
  ++core->count[pipe];
  core->clock[pipe][pipe] = core->count[pipe];
  double start = std::max({core->issue, core->freeAt[pipe], ready});
  double transfer = start + chip.dmaIssue + bursts * chip.dmaBurst;
  double channelEnd = core->takeChannel(transfer, bytes / share);
  double end = std::max(transfer + bytes / cap, channelEnd);
  core->freeAt[pipe] = end;
  double done = end + (read ? chip.dmaReadLatency : chip.dmaWriteLatency);
  core->lastDone[pipe] = std::max(core->lastDone[pipe], done);
  core->busy[pipe] += end - start;
  if (tracing && events.size() < 1000000)
    events.push_back({op, core->id, pipe, start, done - start});
  return done;
}

int64_t Simulator::elementBytes(Value memref) {
  Type e = cast<MemRefType>(memref.getType()).getElementType();
  unsigned bits = e.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, bits / 8);
}

bool Simulator::checkBursts(Operation *op, int64_t count, int64_t len) {
  if (count < 0 || count > chip.maxBurstCount)
    return fail(op, "has " + llvm::Twine(count) +
                        " bursts, but a copy has "
                        "0 to " +
                        llvm::Twine(chip.maxBurstCount));
  if (len < 0 || len > chip.maxBurstLen)
    return fail(op, "has bursts of " + llvm::Twine(len) +
                        " bytes, but a "
                        "burst has 0 to " +
                        llvm::Twine(chip.maxBurstLen));
  return true;
}

bool Simulator::copyIn(CopyGmToUbOp op) {
  int64_t ub = get(op.getUb()), off = get(op.getGmOffset()),
          count = get(op.getBlockCount()), len = get(op.getBlockLen()),
          srcStride = get(op.getSrcStride()),
          dstStride = get(op.getDstStride());
  if (!checkBursts(op, count, len) || !aligned(op, ub, "a DMA destination"))
    return false;
  if (count == 0 || len == 0)
    return true;
  int64_t padded = (len + 31) / 32 * 32;
  std::vector<Access> accesses;
  for (int64_t i = 0; i < count; ++i)
    if (!touch(op, ub + i * (padded + 32 * dstStride),
               ub + i * (padded + 32 * dstStride) + padded, true, accesses))
      return false;
  uint8_t *data;
  int64_t last = off + (count - 1) * (len + srcStride);
  if (!globalRange(op, op.getGm(), off, last + len - off, data))
    return false;
  double ready = 0;
  if (!checkHazards(op, kMTE2, accesses, ready))
    return false;
  int64_t es = elementBytes(op.getGm());
  for (int64_t i = 0; i < count; ++i) {
    uint8_t *dst = core->ub.data() + ub + i * (padded + 32 * dstStride);
    const uint8_t *src = data + off + i * (len + srcStride);
    std::memcpy(dst, src, len);
    uint8_t fill[8] = {0};
    if (auto pad = op.getPadValue()) {
      uint64_t v = uint64_t(*pad);
      for (int64_t k = 0; k < es && k < 8; ++k)
        fill[k] = uint8_t(v >> (8 * k));
    } else {
      std::memcpy(fill, src,
                  std::min<int64_t>(es, std::min<int64_t>(len, 8)));
    }
    for (int64_t k = len; k < padded; ++k)
      dst[k] = fill[(k - len) % std::min<int64_t>(es, 8)];
  }
  report.gmRead += count * len;
  double done = scheduleDMA(op, kMTE2, ready, count, count * len, true);
  record(op, kMTE2, accesses, done);
  return true;
}

bool Simulator::copyOut(CopyUbToGmOp op) {
  int64_t ub = get(op.getUb()), off = get(op.getGmOffset()),
          count = get(op.getBlockCount()), len = get(op.getBlockLen()),
          srcStride = get(op.getSrcStride()),
          dstStride = get(op.getDstStride());
  if (!checkBursts(op, count, len) || !aligned(op, ub, "a DMA source"))
    return false;
  if (count == 0 || len == 0)
    return true;
  int64_t padded = (len + 31) / 32 * 32;
  std::vector<Access> accesses;
  for (int64_t i = 0; i < count; ++i)
    if (!touch(op, ub + i * (padded + 32 * srcStride),
               ub + i * (padded + 32 * srcStride) + len, false, accesses))
      return false;
  uint8_t *data;
  int64_t last = off + (count - 1) * (len + dstStride);
  if (!globalRange(op, op.getGm(), off, last + len - off, data))
    return false;
  double ready = 0;
  if (!checkHazards(op, kMTE3, accesses, ready))
    return false;
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(data + off + i * (len + dstStride),
                core->ub.data() + ub + i * (padded + 32 * srcStride), len);
  report.gmWritten += count * len;
  double done = scheduleDMA(op, kMTE3, ready, count, count * len, false);
  record(op, kMTE3, accesses, done);
  return true;
}

} // namespace mxq::vtile::sim
