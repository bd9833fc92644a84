//===- LayoutOps.cpp - vector instructions that move lanes ----------------===//
//
// One handler per vector op that moves lanes between positions (group
// reduce and broadcast, index, transpose, gather): the operands and
// granules it touches, its occupancy, and what it computes.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"
#include "mxq/Target/Ascend/Lanes.h"

namespace mxq::vtile::sim {

bool Simulator::issue(VReduceGroupOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  Operand src = operand(v.getSrc(), v.getType(), lanes);
  int64_t group = v.getGroup(), total = r * lanes;
  if (total % group)
    return fail(op, "reduces " + llvm::Twine(total) +
                        " lanes in "
                        "groups of " +
                        llvm::Twine(group) + ", which do not divide them");
  int64_t dst = get(v.getDst()), groups = total / group;
  Operand d = operand(v.getDst(), v.getType(), lanes);
  if (!checkRepeat(op, r) || !aligned(op, dst, "a destination") ||
      !touchOperand(op, src, r, lanes, false, is.accesses) ||
      !touch(op, dst, dst + groups * src.bits() / 8, true, is.accesses))
    return false;
  // A block reduce per repeat, plus log2 of the blocks per group.
  is.occupancy = r * chip.vecCyclesPerRepeat *
                 (1 + std::log2(std::max<double>(1, group * src.bits() / 256)));
  is.compute = [=, this, kind = v.getKind()]() {
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
          BinaryKind bk = kind == ReduceKind::max   ? BinaryKind::max
                          : kind == ReduceKind::min ? BinaryKind::min
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
}

bool Simulator::issue(VBroadcastGroupOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  Operand d = operand(v.getDst(), v.getType(), lanes);
  Operand s = operand(v.getSrc(), v.getType(), lanes);
  int64_t group = v.getGroup(), total = r * lanes;
  int64_t sources = (total + group - 1) / group;
  if (!checkRepeat(op, r) || !aligned(op, s.base, "a source") ||
      !touch(op, s.base, s.base + sources * s.bits() / 8, false, is.accesses) ||
      !touchOperand(op, d, r, lanes, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this]() {
    for (int64_t l = 0; l < total; ++l) {
      int64_t k = l / group;
      store(d, l / lanes, l % lanes, load(s, k / lanes, k % lanes));
    }
  };
  return true;
}

bool Simulator::issue(VIndexOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  Operand d = operand(v.getDst(), v.getType(), lanes);
  if (!checkRepeat(op, r) || !touchOperand(op, d, r, lanes, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, first = v.getFirst()]() {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < lanes; ++l)
        store(d, i, l, bitsOfInt(first + i * lanes + l, d.type));
  };
  return true;
}

bool Simulator::issue(VTransposeOp v, Issue &is) {
  Operation *op = v;
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
               src.base + (r * ss + cols) * bytes, false, is.accesses))
      return false;
  for (int64_t c = 0; c < cols; ++c)
    if (!touch(op, dst.base + c * ds * bytes,
               dst.base + (c * ds + rows) * bytes, true, is.accesses))
      return false;
  is.occupancy = double(rows * cols * bytes / 256) * chip.vecCyclesPerRepeat;
  is.compute = [=, this]() {
    std::vector<uint8_t> tmp(rows * cols * bytes);
    uint8_t *ub = core->ub.data();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        std::memcpy(&tmp[(c * rows + r) * bytes],
                    ub + src.base + (r * ss + c) * bytes, bytes);
    for (int64_t c = 0; c < cols; ++c)
      std::memcpy(ub + dst.base + c * ds * bytes, &tmp[c * rows * bytes],
                  rows * bytes);
  };
  return true;
}

bool Simulator::issue(VGatherOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = 64, r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  Type u32 = IntegerType::get(op->getContext(), 32, IntegerType::Unsigned);
  Operand d = operand(v.getDst(), v.getType(), lanes);
  Operand offs = operand(v.getOffsets(), u32, lanes);
  int64_t src = get(v.getSrc());
  if (!checkRepeat(op, r) || !aligned(op, src, "a source") ||
      !touchOperand(op, offs, r, active, false, is.accesses) ||
      !touchOperand(op, d, r, active, true, is.accesses))
    return false;
  // The gathered addresses: read now (the offsets' writers are
  // checked with the other is.accesses before anything runs).
  std::vector<int64_t> from(r * active);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t l = 0; l < active; ++l) {
      int64_t at = src + int64_t(load(offs, i, l));
      if (at % 4 || at + 4 > chip.ubBytes)
        return fail(op, "gathers lane " + llvm::Twine(i * lanes + l) +
                            " from UB byte " + llvm::Twine(at) + ", which is " +
                            (at % 4 ? "not 4-byte aligned" : "outside the UB"));
      from[i * active + l] = at;
      if (!touch(op, at, at + 4, false, is.accesses))
        return false;
    }
  // A gather reads one 32-byte block a cycle per 8 lanes (A).
  is.occupancy = r * chip.vecCyclesPerRepeat * 8;
  is.compute = [=, this]() {
    std::vector<uint32_t> vals(from.size());
    for (size_t k = 0; k < from.size(); ++k)
      std::memcpy(&vals[k], core->ub.data() + from[k], 4);
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l)
        store(d, i, l, vals[i * active + l]);
  };
  return true;
}

} // namespace mxq::vtile::sim
