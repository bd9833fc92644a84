//===- VectorUnit.cpp - vector instructions over the lane model -------------===//
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
                             int64_t active, bool write, std::vector<Access> &out) {
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

bool Simulator::vector(Operation *op) {
  std::vector<Access> accesses;
  double occupancy = 0, ready = 0;
  std::function<void()> compute;
  auto lanesFor = [](std::initializer_list<Type> types) {
    unsigned w = 0;
    for (Type t : types)
      w = std::max(w, laneBits(t));
    return int64_t(2048 / w);
  };
  auto checkRepeat = [&](int64_t r) {
    if (r >= 0 && r <= chip.maxRepeat)
      return true;
    return fail(op, "repeats " + llvm::Twine(r) +
                        " times, but an "
                        "instruction repeats 0 to " +
                        llvm::Twine(chip.maxRepeat) + " times");
  };
  bool ok =
      llvm::TypeSwitch<Operation *, bool>(op)
          .Case([&](VBinaryOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            SmallVector<Operand> o = {
                operand(v.getDst(), v.getType(), lanes),
                operand(v.getLhs(), v.getType(), lanes),
                operand(v.getRhs(), v.getType(), lanes)};
            strides(v, o);
            if (!checkRepeat(r) ||
                !touchOperand(op, o[1], r, active, false, accesses) ||
                !touchOperand(op, o[2], r, active, false, accesses) ||
                !touchOperand(op, o[0], r, active, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, kind = v.getKind()]() {
              bool dz = false;
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l)
                  store(o[0], i, l,
                        lanes::binary(kind, o[0].type, load(o[1], i, l),
                                   load(o[2], i, l), dz));
            };
            return true;
          })
          .Case([&](VScalarOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            SmallVector<Operand> o = {
                operand(v.getDst(), v.getType(), lanes),
                operand(v.getSrc(), v.getType(), lanes)};
            strides(v, o);
            if (!checkRepeat(r) ||
                !touchOperand(op, o[1], r, active, false, accesses) ||
                !touchOperand(op, o[0], r, active, true, accesses))
              return false;
            LT t = o[0].type;
            uint32_t s =
                isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                           : bitsOfInt(scalarInt(v.getScalar()), t);
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, kind = v.getKind()]() {
              bool dz = false;
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l)
                  store(o[0], i, l,
                        lanes::binary(kind, t, load(o[1], i, l), s, dz));
            };
            return true;
          })
          .Case([&](VUnaryOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            SmallVector<Operand> o = {
                operand(v.getDst(), v.getType(), lanes),
                operand(v.getSrc(), v.getType(), lanes)};
            strides(v, o);
            if (!checkRepeat(r) ||
                !touchOperand(op, o[1], r, active, false, accesses) ||
                !touchOperand(op, o[0], r, active, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, kind = v.getKind()]() {
              LT t = o[0].type;
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l) {
                  uint32_t res = lanes::unary(kind, t, load(o[1], i, l));
                  store(o[0], i, l, res);
                }
            };
            return true;
          })
          .Case([&](VDupOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            SmallVector<Operand> o = {
                operand(v.getDst(), v.getType(), lanes)};
            strides(v, o);
            if (!checkRepeat(r) ||
                !touchOperand(op, o[0], r, active, true, accesses))
              return false;
            LT t = o[0].type;
            uint32_t s =
                isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                           : bitsOfInt(scalarInt(v.getScalar()), t);
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this]() {
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l)
                  store(o[0], i, l, s);
            };
            return true;
          })
          .Case([&](VCmpsOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            Operand src = operand(v.getSrc(), v.getType(), lanes);
            int64_t dst = get(v.getDst());
            if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                !touchOperand(op, src, r, active, false, accesses) ||
                !touch(op, dst, dst + r * lanes / 8, true, accesses))
              return false;
            double s = scalarValue(v.getScalar());
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, p = v.getPredicate()]() {
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < lanes; ++l) {
                  uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
                  bool bit = l < active &&
                             lanes::compare(p, src.type, load(src, i, l), s);
                  byte = uint8_t((byte & ~(1u << (l % 8))) |
                                 (unsigned(bit) << (l % 8)));
                }
            };
            return true;
          })
          .Case([&](VCmpOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            Operand lhs = operand(v.getLhs(), v.getType(), lanes);
            Operand rhs = operand(v.getRhs(), v.getType(), lanes);
            int64_t dst = get(v.getDst());
            if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                !touchOperand(op, lhs, r, active, false, accesses) ||
                !touchOperand(op, rhs, r, active, false, accesses) ||
                !touch(op, dst, dst + r * lanes / 8, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, p = v.getPredicate()]() {
              LT t = lhs.type;
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < lanes; ++l) {
                  uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
                  bool bit = false;
                  if (l < active) {
                    uint32_t b = load(rhs, i, l);
                    double s = isFloat(t)    ? double(floatOf(b, t))
                               : isSigned(t) ? double(intOf(b, t))
                                             : double(b);
                    bit = lanes::compare(p, t, load(lhs, i, l), s);
                  }
                  byte = uint8_t((byte & ~(1u << (l % 8))) |
                                 (unsigned(bit) << (l % 8)));
                }
            };
            return true;
          })
          .Case([&](VSelOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            Operand d = operand(v.getDst(), v.getType(), lanes),
                    a = operand(v.getLhs(), v.getType(), lanes),
                    b = operand(v.getRhs(), v.getType(), lanes);
            int64_t m = get(v.getSelMask());
            if (!checkRepeat(r) || !aligned(op, m, "a mask") ||
                !touch(op, m, m + r * lanes / 8, false, accesses) ||
                !touchOperand(op, a, r, active, false, accesses) ||
                !touchOperand(op, b, r, active, false, accesses) ||
                !touchOperand(op, d, r, active, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this]() {
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l) {
                  bool bit =
                      (core->ub[m + i * lanes / 8 + l / 8] >> (l % 8)) & 1;
                  store(d, i, l, bit ? load(a, i, l) : load(b, i, l));
                }
            };
            return true;
          })
          .Case([&](VCastOp v) {
            int64_t lanes = lanesFor({v.getSrcType(), v.getDstType()}),
                    r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            SmallVector<Operand> o = {
                operand(v.getDst(), v.getDstType(), lanes),
                operand(v.getSrc(), v.getSrcType(), lanes)};
            strides(v, o);
            if (!checkRepeat(r) ||
                !touchOperand(op, o[1], r, active, false, accesses) ||
                !touchOperand(op, o[0], r, active, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, round = v.getRound(), sat = v.getSat(),
                       satNaN = core->ctrlFP8SatNaN]() {
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l)
                  store(o[0], i, l,
                        lanes::cast(o[1].type, o[0].type, round, sat,
                                    load(o[1], i, l), satNaN));
            };
            return true;
          })
          .Case([&](VReduceGroupOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            Operand src = operand(v.getSrc(), v.getType(), lanes);
            int64_t group = v.getGroup(), total = r * lanes;
            if (total % group)
              return fail(op, "reduces " + llvm::Twine(total) +
                                  " lanes in "
                                  "groups of " +
                                  llvm::Twine(group) +
                                  ", which do not divide them");
            int64_t dst = get(v.getDst()), groups = total / group;
            Operand d = operand(v.getDst(), v.getType(), lanes);
            if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                !touchOperand(op, src, r, lanes, false, accesses) ||
                !touch(op, dst, dst + groups * src.bits() / 8, true,
                       accesses))
              return false;
            // A block reduce per repeat, plus log2 of the blocks per group.
            occupancy =
                r * chip.vecCyclesPerRepeat *
                (1 +
                 std::log2(std::max<double>(1, group * src.bits() / 256)));
            compute = [=, this, kind = v.getKind()]() {
              LT t = src.type;
              for (int64_t g = 0; g < groups; ++g) {
                std::vector<uint32_t> vals(group);
                for (int64_t k = 0; k < group; ++k) {
                  int64_t l = g * group + k;
                  vals[k] = load(src, l / lanes, l % lanes);
                }
                // A binary tree, as the hardware sums.
                for (int64_t n = group; n > 1; n = (n + 1) / 2)
                  for (int64_t k = 0; k < n / 2; ++k) {
                    uint32_t a = vals[2 * k], b = vals[2 * k + 1];
                    bool dz = false;
                    BinaryKind bk = kind == ReduceKind::max ? BinaryKind::max
                                    : kind == ReduceKind::min
                                        ? BinaryKind::min
                                        : BinaryKind::add;
                    vals[k] = lanes::binary(bk, t, a, b, dz);
                    if (n % 2 && k == n / 2 - 1)
                      vals[k + 1] = vals[n - 1];
                  }
                Operand out = d;
                out.blockStride = 1;
                out.repeatStride = out.lanes * out.bits() / 256;
                store(out, g / lanes, g % lanes, vals[0]);
              }
            };
            return true;
          })
          .Case([&](VBroadcastGroupOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            Operand d = operand(v.getDst(), v.getType(), lanes);
            Operand s = operand(v.getSrc(), v.getType(), lanes);
            int64_t group = v.getGroup(), total = r * lanes;
            int64_t sources = (total + group - 1) / group;
            if (!checkRepeat(r) || !aligned(op, s.base, "a source") ||
                !touch(op, s.base, s.base + sources * s.bits() / 8, false,
                       accesses) ||
                !touchOperand(op, d, r, lanes, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this]() {
              for (int64_t l = 0; l < total; ++l) {
                int64_t k = l / group;
                store(d, l / lanes, l % lanes, load(s, k / lanes, k % lanes));
              }
            };
            return true;
          })
          .Case([&](VIndexOp v) {
            int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
            Operand d = operand(v.getDst(), v.getType(), lanes);
            if (!checkRepeat(r) ||
                !touchOperand(op, d, r, lanes, true, accesses))
              return false;
            occupancy = r * chip.vecCyclesPerRepeat;
            compute = [=, this, first = v.getFirst()]() {
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < lanes; ++l)
                  store(d, i, l, bitsOfInt(first + i * lanes + l, d.type));
            };
            return true;
          })
          .Case([&](VTransposeOp v) {
            Operand src = operand(v.getSrc(), v.getType(), 64);
            Operand dst = operand(v.getDst(), v.getType(), 64);
            int64_t rows = v.getRows(), cols = v.getCols();
            int64_t ss = v.getSrcStride(), ds = v.getDstStride();
            int64_t bytes = src.bits() / 8;
            if (!aligned(op, src.base, "a source") ||
                !aligned(op, dst.base, "a destination"))
              return false;
            for (int64_t r = 0; r < rows; ++r)
              if (!touch(op, src.base + r * ss * bytes,
                         src.base + (r * ss + cols) * bytes, false, accesses))
                return false;
            for (int64_t c = 0; c < cols; ++c)
              if (!touch(op, dst.base + c * ds * bytes,
                         dst.base + (c * ds + rows) * bytes, true, accesses))
                return false;
            occupancy =
                double(rows * cols * bytes / 256) * chip.vecCyclesPerRepeat;
            compute = [=, this]() {
              std::vector<uint8_t> tmp(rows * cols * bytes);
              uint8_t *ub = core->ub.data();
              for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c)
                  std::memcpy(&tmp[(c * rows + r) * bytes],
                              ub + src.base + (r * ss + c) * bytes, bytes);
              for (int64_t c = 0; c < cols; ++c)
                std::memcpy(ub + dst.base + c * ds * bytes,
                            &tmp[c * rows * bytes], rows * bytes);
            };
            return true;
          })
          .Case([&](VGatherOp v) {
            int64_t lanes = 64, r = get(v.getRepeat());
            int64_t active = v.getMask().value_or(lanes);
            Type u32 =
                IntegerType::get(op->getContext(), 32, IntegerType::Unsigned);
            Operand d = operand(v.getDst(), v.getType(), lanes);
            Operand offs = operand(v.getOffsets(), u32, lanes);
            int64_t src = get(v.getSrc());
            if (!checkRepeat(r) || !aligned(op, src, "a source") ||
                !touchOperand(op, offs, r, active, false, accesses) ||
                !touchOperand(op, d, r, active, true, accesses))
              return false;
            // The gathered addresses: read now (the offsets' writers are
            // checked with the other accesses before anything runs).
            std::vector<int64_t> from(r * active);
            for (int64_t i = 0; i < r; ++i)
              for (int64_t l = 0; l < active; ++l) {
                int64_t at = src + int64_t(load(offs, i, l));
                if (at % 4 || at + 4 > chip.ubBytes)
                  return fail(
                      op,
                      "gathers lane " + llvm::Twine(i * lanes + l) +
                          " from UB byte " + llvm::Twine(at) + ", which is " +
                          (at % 4 ? "not 4-byte aligned" : "outside the UB"));
                from[i * active + l] = at;
                if (!touch(op, at, at + 4, false, accesses))
                  return false;
              }
            // A gather reads one 32-byte block a cycle per 8 lanes (A).
            occupancy = r * chip.vecCyclesPerRepeat * 8;
            compute = [=, this]() {
              std::vector<uint32_t> vals(from.size());
              for (size_t k = 0; k < from.size(); ++k)
                std::memcpy(&vals[k], core->ub.data() + from[k], 4);
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l)
                  store(d, i, l, vals[i * active + l]);
            };
            return true;
          })
          .Default([](Operation *) { return false; });
  if (!ok)
    return false;
  if (!checkHazards(op, kV, accesses, ready))
    return false;
  compute();
  double done = schedule(op, kV, ready, occupancy, latencyOf(op));
  record(op, kV, accesses, done);
  return true;
}

} // namespace mxq::vtile::sim
