//===- VectorUnit.cpp - the vector unit: operands, issue, dispatch --------===//
//
// What every vector instruction shares: lane loads and stores, the UB
// granules an operand touches, the latency table, and the dispatch that
// issues an instruction through its handler (ElementwiseOps.cpp,
// LayoutOps.cpp: one `issue` per op), checks its hazards, runs it and
// schedules it on the V pipe.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"
#include "mxq/Target/Ascend/Lanes.h"

namespace mxq::vtile::sim {

uint32_t Simulator::load(const Operand &o, int64_t r, int64_t l) {
  int64_t at = o.byteOf(r, l);
  const uint8_t *p = core->ub.data() + at;
  switch (o.bits()) {
  case 4:
    return (l % 2) ? (p[0] >> 4) : (p[0] & 0xF);
  case 8:
    return p[0];
  case 16:
    return uint32_t(p[0]) | uint32_t(p[1]) << 8;
  default: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  }
}

void Simulator::store(const Operand &o, int64_t r, int64_t l, uint32_t v) {
  int64_t at = o.byteOf(r, l);
  uint8_t *p = core->ub.data() + at;
  switch (o.bits()) {
  case 4:
    p[0] = (l % 2) ? uint8_t((p[0] & 0x0F) | (v & 0xF) << 4)
                   : uint8_t((p[0] & 0xF0) | (v & 0xF));
    return;
  case 8:
    p[0] = uint8_t(v);
    return;
  case 16:
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
    return;
  default:
    std::memcpy(p, &v, 4);
    return;
  }
}

bool Simulator::touchOperand(Operation *op, const Operand &o, int64_t repeats,
                             int64_t active, bool write,
                             std::vector<Access> &out) {
  if (!aligned(op, o.base, write ? "a destination" : "a source"))
    return false;
  int64_t blocks = (active + o.lanesPerBlock() - 1) / o.lanesPerBlock();
  for (int64_t r = 0; r < repeats; ++r)
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t at = o.base + 32 * (r * o.repeatStride + b * o.blockStride);
      if (!touch(op, at, at + 32, write, out))
        return false;
    }
  return true;
}

double Simulator::latencyOf(Operation *op) const {
  const VectorLatencies &l = chip.latency;
  if (auto b = dyn_cast<VBinaryOp>(op))
    return b.getKind() == BinaryKind::mul   ? l.mul
           : b.getKind() == BinaryKind::div ? l.div
                                            : l.alu;
  if (auto s = dyn_cast<VScalarOp>(op))
    return s.getKind() == BinaryKind::mul ? l.mul : l.alu;
  if (isa<VCastOp>(op))
    return l.cast;
  if (isa<VReduceGroupOp>(op))
    return l.reduce;
  if (isa<VGatherOp>(op))
    return l.gather;
  return l.alu;
}

Operand Simulator::operand(Value address, Type type, int64_t lanes) {
  Operand o;
  o.base = get(address);
  o.type = laneTypeOf(type);
  o.lanes = lanes;
  o.repeatStride = lanes * o.bits() / 256;
  if (o.repeatStride == 0)
    o.repeatStride = 1;
  return o;
}

int64_t Simulator::lanesOf(std::initializer_list<Type> types) {
  unsigned w = 0;
  for (Type t : types)
    w = std::max(w, laneBits(t));
  return int64_t(2048 / w);
}

bool Simulator::checkRepeat(Operation *op, int64_t r) {
  if (r >= 0 && r <= chip.maxRepeat)
    return true;
  return fail(op, "repeats " + llvm::Twine(r) +
                      " times, but an "
                      "instruction repeats 0 to " +
                      llvm::Twine(chip.maxRepeat) + " times");
}

bool Simulator::vector(Operation *op) {
  Issue is;
  bool ok =
      llvm::TypeSwitch<Operation *, bool>(op)
          .Case<VBinaryOp, VScalarOp, VUnaryOp, VDupOp, VCmpsOp, VCmpOp, VSelOp,
                VCastOp, VReduceGroupOp, VBroadcastGroupOp, VIndexOp,
                VTransposeOp, VGatherOp>([&](auto v) { return issue(v, is); })
          .Default([](Operation *) { return false; });
  if (!ok)
    return false;
  double ready = 0;
  if (!checkHazards(op, kV, is.accesses, ready))
    return false;
  is.compute();
  double done = schedule(op, kV, ready, is.occupancy, latencyOf(op));
  record(op, kV, is.accesses, done);
  return true;
}

} // namespace mxq::vtile::sim
