//===- Numerics.cpp - the MX rules as vtile instructions ------------------===//
//
// Every MX rule the Ascend lowering states: the scale byte and multiplier,
// element codes by cast or by integer code, decodes and scale values. The
// rules are the reference's (docs/Rationale.md names each); this file is
// the only place in lib/Target/Ascend that restates them.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "mxq/Numerics/Recipes.h"

#include <memory>

namespace mxq::vtile::lowering {

//===----------------------------------------------------------------------===//
// The recipes' vtile lane domain
//===----------------------------------------------------------------------===//

namespace {

/// A value of the recipes' vtile domain: a node of an expression DAG over
/// u32 lanes (or lane masks), built by the recipe and emitted afterwards,
/// so that what a recipe computes but does not use emits nothing and
/// constants fold.
struct Node;
using NodeRef = std::shared_ptr<Node>;
enum class NOp {
  Const, Input, Add, Sub, And, Or, Shl, Shr, MinU, MaxU, MaxS, MinS, MulF32,
  MulF, DivF, ///< f32 lanes' product and quotient
  Sel,     ///< value: m ? a : b
  Cmp,     ///< mask: pred(a, b), unsigned
  MaskSel, ///< mask: m ? a : b
};
struct Node {
  NOp op;
  int64_t c = 0; ///< Const: the lane value, as u32
  /// Every lane is below this (as unsigned): what the peepholes may assume.
  uint64_t bound = uint64_t(1) << 32;
  float k = 0;   ///< MulF32
  CmpPredicate pred = CmpPredicate::eq;
  Value in; ///< Input: its UB buffer
  NodeRef a, b, m;
  bool isMask() const { return op == NOp::Cmp || op == NOp::MaskSel; }
  bool isConst(int64_t v) const { return op == NOp::Const && c == v; }
  // Emission state.
  int uses = 0;   ///< consumptions still to come
  int slot = -1;  ///< the scratch slot holding it, once emitted
  bool done = false;
  bool inDst = false; ///< computed in emitInto's destination (its spine)
};

/// The recipes' domain on the vector unit (mxq/Numerics/Recipes.h). Values
/// live in UB buffers of `n` u32 lanes, masks in one mask buffer: a mask is
/// emitted (vcmps/vcmp) right before the vsel that reads it, a select on a
/// mask of masks is expanded into selects on values. Scratch buffers are
/// slots, given back at their last use (an instruction writes in place over
/// an operand it reads last). With `dry`, nothing is emitted and
/// `peakSlots` says how many slots the recipe needs, which is how the UB
/// plans count what the kernels allocate.
class VTileLanes {
public:
  using V = NodeRef;
  VTileLanes(Emitter *e, int64_t n, int64_t maskLanes, Value mask,
             ArrayRef<Value> slots)
      : e(e), n(n), maskLanes(maskLanes), mask(mask),
        slotValues(slots.begin(), slots.end()) {
    for (int s = int(slots.size()) - 1; s >= 0; --s)
      freeSlots.push_back(s);
  }
  /// A domain that emits nothing and counts the slots it would take.
  static VTileLanes dry() { return VTileLanes(nullptr, 0, 0, Value(), {}); }

  static bool has(const V &v) { return bool(v); }
  V c(int64_t v) {
    auto r = node(NOp::Const);
    r->c = int64_t(uint32_t(v));
    r->bound = uint64_t(r->c) + 1;
    return r;
  }
  /// A UB buffer of lanes each below `bound` (the amax bits: 2^31).
  V input(Value buf, uint64_t bound = uint64_t(1) << 32) {
    auto r = node(NOp::Input);
    r->in = buf;
    r->bound = bound;
    return r;
  }
  V add(V x, V y) {
    // x + zext(m): m ? x + 1 : x.
    if (y->op == NOp::Sel && y->a->isConst(1) && y->b->isConst(0))
      return sel(y->m, add(x, c(1)), x);
    return bin(NOp::Add, x, y, [](uint32_t a, uint32_t b) { return a + b; });
  }
  V sub(V x, V y) {
    return bin(NOp::Sub, x, y, [](uint32_t a, uint32_t b) { return a - b; });
  }
  V andi(V x, V y) {
    // x & (2^k - 1) where every lane of x is below 2^k: x.
    if (y->op == NOp::Const && ((y->c + 1) & y->c) == 0 &&
        x->bound <= uint64_t(y->c) + 1)
      return x;
    return bin(NOp::And, x, y, [](uint32_t a, uint32_t b) { return a & b; });
  }
  V ori(V x, V y) {
    return bin(NOp::Or, x, y, [](uint32_t a, uint32_t b) { return a | b; });
  }
  V shl(V x, V y) {
    return bin(NOp::Shl, x, y,
               [](uint32_t a, uint32_t b) { return b > 31 ? 0u : a << b; });
  }
  V shr(V x, V y) {
    return bin(NOp::Shr, x, y,
               [](uint32_t a, uint32_t b) { return b > 31 ? 0u : a >> b; });
  }
  V minu(V x, V y) {
    return bin(NOp::MinU, x, y,
               [](uint32_t a, uint32_t b) { return std::min(a, b); });
  }
  V maxu(V x, V y) {
    return bin(NOp::MaxU, x, y,
               [](uint32_t a, uint32_t b) { return std::max(a, b); });
  }
  V maxs(V x, V y) {
    return bin(NOp::MaxS, x, y, [](uint32_t a, uint32_t b) {
      return uint32_t(std::max(int32_t(a), int32_t(b)));
    });
  }
  V mins(V x, V y) {
    return bin(NOp::MinS, x, y, [](uint32_t a, uint32_t b) {
      return uint32_t(std::min(int32_t(a), int32_t(b)));
    });
  }
  V eq(V x, V y) { return cmp(CmpPredicate::eq, x, y); }
  V ne(V x, V y) { return cmp(CmpPredicate::ne, x, y); }
  V ugt(V x, V y) { return cmp(CmpPredicate::gt, x, y); }
  V uge(V x, V y) { return cmp(CmpPredicate::ge, x, y); }
  V ule(V x, V y) { return cmp(CmpPredicate::le, x, y); }
  V sel(V m, V x, V y) {
    if (m->op == NOp::Const)
      return m->c ? x : y;
    // x <= k ? 0 : min(x - k, M) is min(max(x, k) - k, M) (unsigned): the
    // floor scale byte's clamp without a select (floorFromExponent).
    if (m->op == NOp::Cmp && m->pred == CmpPredicate::le &&
        m->b->op == NOp::Const && x->isConst(0) && y->op == NOp::MinU &&
        y->b->op == NOp::Const && y->a->op == NOp::Sub && y->a->a == m->a &&
        y->a->b->isConst(m->b->c))
      return minu(sub(maxu(m->a, m->b), m->b), y->b);
    // x > K ? C : (x == K ? C : s) is x >= K ? C : s: the NaN and Inf
    // bytes of scaleByte where they are the same (inf = nan).
    if (m->op == NOp::Cmp && m->pred == CmpPredicate::gt &&
        m->b->op == NOp::Const && x->op == NOp::Const && y->op == NOp::Sel &&
        y->m->op == NOp::Cmp && y->m->pred == CmpPredicate::eq &&
        y->m->a == m->a && y->m->b->isConst(m->b->c) && y->a->isConst(x->c))
      return sel(uge(m->a, m->b), x, y->b);
    auto r = node(x->isMask() || y->isMask() ? NOp::MaskSel : NOp::Sel);
    r->m = m;
    r->a = x;
    r->b = y;
    return r;
  }
  V zext(V m) { return sel(m, c(1), c(0)); }
  V mulF32(V x, float k) {
    auto r = node(NOp::MulF32);
    r->a = x;
    r->k = k;
    return r;
  }
  V mulF(V x, V y) {
    return bin(NOp::MulF, x, y, [](uint32_t a, uint32_t b) {
      return bitsOfF(floatOfB(a) * floatOfB(b));
    });
  }
  V divF(V x, V y) {
    return bin(NOp::DivF, x, y, [](uint32_t a, uint32_t b) {
      return bitsOfF(floatOfB(a) / floatOfB(b));
    });
  }
  V e8m0RoundUp(V) { return V(); } // no E8M0 cast is modelled

  /// Emits `root` (a value) into `dst`, a UB buffer of n u32 lanes that
  /// no node reads.
  void emitInto(const V &root, Value dst) {
    count(root);
    this->root = root.get();
    rootDst = dst;
    // The root's spine (each node the next one overwrites in place, read
    // nowhere else) is computed in `dst` itself: no slot for it.
    for (Node *n = root.get(); n;) {
      n->inDst = true;
      NodeRef next = n->op == NOp::Sel ? n->b
                     : (n->op != NOp::Const && n->op != NOp::Input &&
                        !n->isMask() && n->op != NOp::Sel)
                         ? n->a
                         : NodeRef();
      if (!next || next->op == NOp::Const || next->op == NOp::Input ||
          next->isMask() || next->uses != 1)
        break;
      n = next.get();
    }
    if (root->op == NOp::Input) {
      if (e)
        e->unary(UnaryKind::copy, dst, root->in, u32Type(), n);
      return;
    }
    if (root->op == NOp::Const) {
      if (e)
        e->dup(dst, u32(root->c), u32Type(), n);
      return;
    }
    compute(root, dst);
  }
  int peakSlots() const { return peak; }

private:
  Emitter *e;
  int64_t n, maskLanes;
  Value mask;
  std::vector<Value> slotValues;
  std::vector<int> freeSlots;
  int used = 0, peak = 0, virtualSlots = 0;
  const Node *root = nullptr; ///< what emitInto writes into its `dst`
  Value rootDst;              ///< that `dst`

  static float floatOfB(uint32_t v) {
    float f;
    std::memcpy(&f, &v, sizeof f);
    return f;
  }
  static uint32_t bitsOfF(float f) {
    uint32_t v;
    std::memcpy(&v, &f, sizeof v);
    return v;
  }

  V node(NOp op) {
    auto r = std::make_shared<Node>();
    r->op = op;
    return r;
  }
  template <typename F> V bin(NOp op, V x, V y, F fold) {
    if (x->op == NOp::Const && y->op == NOp::Const)
      return c(int64_t(fold(uint32_t(x->c), uint32_t(y->c))));
    auto r = node(op);
    r->a = x;
    r->b = y;
    // What is known of its lanes' range.
    if (op == NOp::Shr && y->op == NOp::Const && y->c < 32)
      r->bound = ((x->bound - 1) >> y->c) + 1;
    else if (op == NOp::And && y->op == NOp::Const)
      r->bound = std::min(x->bound, uint64_t(y->c) + 1);
    else if (op == NOp::MinU)
      r->bound = std::min(x->bound, y->bound);
    return r;
  }
  V cmp(CmpPredicate p, V x, V y) {
    if (x->op == NOp::Const && y->op == NOp::Const) {
      uint32_t a = uint32_t(x->c), b = uint32_t(y->c);
      bool v = p == CmpPredicate::eq   ? a == b
               : p == CmpPredicate::ne ? a != b
               : p == CmpPredicate::gt ? a > b
               : p == CmpPredicate::ge ? a >= b
               : p == CmpPredicate::le ? a <= b
                                       : a < b;
      return c(v);
    }
    auto r = node(NOp::Cmp);
    r->pred = p;
    r->a = x;
    r->b = y;
    return r;
  }

  Type u32Type() {
    return IntegerType::get(e->b.getContext(), 32, IntegerType::Unsigned);
  }
  Type i32Type() {
    return IntegerType::get(e->b.getContext(), 32, IntegerType::Signed);
  }
  IntegerAttr u32(int64_t v) { return IntegerAttr::get(u32Type(), v); }

  /// The future consumptions of every node: a value node's operands once
  /// (it is computed once), a mask's operands at every use (a mask is
  /// recomputed where it is read).
  void count(const V &v) {
    if (v->op == NOp::Const || v->op == NOp::Input)
      return;
    ++v->uses;
    if (v->uses > 1 && !v->isMask())
      return;
    for (const V &o : {v->a, v->b, v->m})
      if (o)
        count(o);
  }

  int allocSlot() {
    ++used;
    peak = std::max(peak, used);
    if (freeSlots.empty()) {
      if (e)
        llvm::report_fatal_error("the vtile scale recipe needs more scratch "
                                 "than its UB plan counts");
      return int(slotValues.size()) + virtualSlots++;
    }
    int s = freeSlots.back();
    freeSlots.pop_back();
    return s;
  }
  void freeSlot(int s) {
    --used;
    freeSlots.push_back(s);
  }
  Value bufOf(int slot) { return e ? slotValues[slot] : Value(); }

  /// The buffer holding the value `v` (computed on its first use).
  Value operandBuf(const V &v) {
    if (v->op == NOp::Input)
      return v->in;
    if (!v->done)
      compute(v, Value());
    if (v->inDst)
      return rootDst;
    return bufOf(v->slot);
  }
  /// One consumption of `v` done: its slot is free after its last.
  void consumed(const V &v) {
    if (v->op == NOp::Const || v->op == NOp::Input)
      return;
    if (--v->uses == 0 && v->slot >= 0 && !v->isMask())
      freeSlot(v->slot);
  }
  /// Where the result of `v` goes: `dst`, else the slot of an operand read
  /// for the last time, else a free slot.
  Value resultBuf(const V &v, Value dst, std::initializer_list<V> reads) {
    if (v.get() == root)
      return dst;
    if (v->inDst)
      return rootDst;
    for (const V &o : reads)
      if (o && o->op != NOp::Const && o->op != NOp::Input && !o->isMask() &&
          o->uses == 1 && o->slot >= 0) {
        v->slot = o->slot;
        o->slot = -1; // handed over, not freed
        return bufOf(v->slot);
      }
    v->slot = allocSlot();
    return bufOf(v->slot);
  }

  /// A buffer holding `v` for one read: its own, or a slot filled with the
  /// constant (`temp` set, to be freed by the caller).
  Value valueBuf(const V &v, int &temp) {
    temp = -1;
    if (v->op != NOp::Const)
      return operandBuf(v);
    temp = allocSlot();
    if (e)
      e->dup(bufOf(temp), u32(v->c), u32Type(), maskLanes);
    return bufOf(temp);
  }

  void compute(const V &v, Value dst) {
    v->done = true;
    switch (v->op) {
    case NOp::Const:
    case NOp::Input:
    case NOp::Cmp:
    case NOp::MaskSel:
      return;
    case NOp::MulF32: {
      Value src = operandBuf(v->a);
      Value out = resultBuf(v, dst, {v->a});
      if (e)
        e->scalar(BinaryKind::mul, out, src,
                  FloatAttr::get(e->b.getF32Type(), v->k), e->b.getF32Type(),
                  n);
      consumed(v->a);
      return;
    }
    case NOp::Sel: {
      // The values first, then the constants' buffers (held for one read).
      int ta = -1, tb = -1;
      Value a, b;
      if (v->a->op != NOp::Const)
        a = operandBuf(v->a);
      if (v->b->op != NOp::Const)
        b = operandBuf(v->b);
      if (v->a->op == NOp::Const)
        a = valueBuf(v->a, ta);
      if (v->b->op == NOp::Const)
        b = valueBuf(v->b, tb);
      Value out = resultBuf(v, dst, {v->b, v->a});
      select(v->m, out, a, b);
      consumed(v->a);
      consumed(v->b);
      if (ta >= 0)
        freeSlot(ta);
      if (tb >= 0)
        freeSlot(tb);
      return;
    }
    default:
      break;
    }
    // Binary operations.
    V x = v->a, y = v->b;
    BinaryKind kind = BinaryKind::add;
    bool commutative = true, signedLanes = false, floatLanes = false;
    switch (v->op) {
    case NOp::Add:
      kind = BinaryKind::add;
      break;
    case NOp::Sub:
      kind = BinaryKind::sub;
      commutative = false;
      break;
    case NOp::And:
      kind = BinaryKind::And;
      break;
    case NOp::Or:
      kind = BinaryKind::Or;
      break;
    case NOp::Shl:
      kind = BinaryKind::shl;
      commutative = false;
      break;
    case NOp::Shr:
      kind = BinaryKind::shr;
      commutative = false;
      break;
    case NOp::MinU:
      kind = BinaryKind::min;
      break;
    case NOp::MaxU:
      kind = BinaryKind::max;
      break;
    case NOp::MaxS:
      kind = BinaryKind::max;
      signedLanes = true;
      break;
    case NOp::MinS:
      kind = BinaryKind::min;
      signedLanes = true;
      break;
    case NOp::MulF:
      kind = BinaryKind::mul;
      floatLanes = true;
      break;
    case NOp::DivF:
      kind = BinaryKind::div;
      floatLanes = true;
      commutative = false;
      break;
    default:
      break;
    }
    if (x->op == NOp::Const && commutative)
      std::swap(x, y);
    Type t = !e            ? Type()
             : floatLanes  ? e->b.getF32Type()
             : signedLanes ? i32Type()
                           : u32Type();
    auto scalarAttr = [&](int64_t c) -> Attribute {
      if (floatLanes)
        return FloatAttr::get(t, floatOfB(uint32_t(c)));
      return IntegerAttr::get(t, signedLanes ? int64_t(int32_t(c)) : c);
    };
    if (y->op == NOp::Const) {
      Value src = operandBuf(x);
      Value out = resultBuf(v, dst, {x});
      if (e)
        e->scalar(kind, out, src, scalarAttr(y->c), t, n);
      consumed(x);
      return;
    }
    if (x->op == NOp::Const && v->op == NOp::Sub) { // c - y = -y + c
      Value src = operandBuf(y);
      Value out = resultBuf(v, dst, {y});
      if (e) {
        e->scalar(BinaryKind::mul, out, src, u32(0xFFFFFFFF), u32Type(), n);
        e->scalar(BinaryKind::add, out, out, u32(x->c), u32Type(), n);
      }
      consumed(y);
      return;
    }
    Value by = operandBuf(y);
    int tx;
    Value bx = valueBuf(x, tx);
    Value out = resultBuf(v, dst, {x, y});
    if (e)
      e->binary(kind, out, bx, by, t, n);
    consumed(x);
    consumed(y);
    if (tx >= 0)
      freeSlot(tx);
  }

  /// out = m ? a : b (u32 buffers; `out` may be `a` or `b`).
  void select(const V &m, Value out, Value a, Value b) {
    if (m->op == NOp::MaskSel) {
      // m ? p : q as a mask: (m ? (p ? a : b) : (q ? a : b)).
      int t1 = allocSlot(), t2 = allocSlot();
      select(m->b, bufOf(t1), a, b);
      select(m->a, bufOf(t2), a, b);
      select(m->m, out, bufOf(t2), bufOf(t1));
      freeSlot(t1);
      freeSlot(t2);
      return;
    }
    // A comparison, into the mask buffer right before its one read.
    V x = m->a, y = m->b;
    CmpPredicate p = m->pred;
    if (x->op == NOp::Const) { // c op y = y op' c
      std::swap(x, y);
      p = p == CmpPredicate::gt   ? CmpPredicate::lt
          : p == CmpPredicate::ge ? CmpPredicate::le
          : p == CmpPredicate::le ? CmpPredicate::ge
          : p == CmpPredicate::lt ? CmpPredicate::gt
                                  : p;
    }
    Value bx = operandBuf(x);
    if (y->op == NOp::Const) {
      if (e)
        e->cmps(p, mask, bx, u32(y->c), u32Type(), maskLanes);
    } else {
      Value by = operandBuf(y);
      if (e)
        e->cmp(p, mask, bx, by, u32Type(), maskLanes);
      consumed(y);
    }
    consumed(x);
    if (e)
      e->sel(out, mask, a, b, u32Type(), maskLanes);
  }
};

} // namespace

/// The scratch slots of the block recipe: E, CONST, T and T2 where the
/// kernel has them, and MB until the multiplier is written.
static SmallVector<Value> blockSlots(const BlockBuffers &bb, bool withMB) {
  SmallVector<Value> slots;
  for (Value v : {bb.e, bb.cst, bb.t, bb.t2})
    if (v)
      slots.push_back(v);
  slots.append(bb.extra.begin(), bb.extra.end());
  if (withMB)
    slots.push_back(bb.mb);
  return slots;
}

/// From the amax bits of each block (bb.am, sign clear: the maximum of
/// |x| bits), its scale byte (bb.s) and the
/// bits of its f32 multiplier (bb.mb): the recipes of
/// mxq/Numerics/Recipes.h (scaleByte, scaleMultiplierBits, underflowFlush)
/// in the vtile domain.
void emitScaleAndMultiplier(Emitter &e, const BlockBuffers &bb,
                            const BlockPolicy &pol) {
  if (pol.f32) {
    // The stored scale, then the factor (the recipe again: what the first
    // root does not read emits nothing).
    for (bool factor : {false, true}) {
      VTileLanes l(&e, bb.lanes, bb.maskLanes, bb.mask,
                   blockSlots(bb, /*withMB=*/false));
      auto r = recipes::f32BlockScale(l, l.input(bb.am, uint64_t(1) << 31),
                                      *pol.f32);
      l.emitInto(factor ? r.second : r.first, factor ? bb.mb : bb.s);
    }
    return;
  }
  {
    VTileLanes l(&e, bb.lanes, bb.maskLanes, bb.mask, blockSlots(bb, true));
    l.emitInto(recipes::scaleByte(l, l.input(bb.am, uint64_t(1) << 31),
                                  dialect::toSupport(pol.algorithm),
                                  dialect::toSupport(pol.inf), pol.format),
               bb.s);
  }
  VTileLanes l(&e, bb.lanes, bb.maskLanes, bb.mask, blockSlots(bb, false));
  VTileLanes::V bits = recipes::scaleMultiplierBits(l, l.input(bb.s));
  if (VTileLanes::V flush = recipes::underflowFlush(
          l, l.input(bb.am, uint64_t(1) << 31),
          dialect::toSupport(pol.underflow), pol.format))
    bits = l.sel(flush, l.c(0), bits);
  l.emitInto(bits, bb.mb);
}

int64_t blockRecipeSlots(const BlockPolicy &pol) {
  if (pol.f32) {
    int64_t peak = 0;
    for (bool factor : {false, true}) {
      VTileLanes l = VTileLanes::dry();
      auto r = recipes::f32BlockScale(l, l.input(Value(), uint64_t(1) << 31),
                                      *pol.f32);
      l.emitInto(factor ? r.second : r.first, Value());
      peak = std::max<int64_t>(peak, l.peakSlots());
    }
    return peak + 1; // MB is not a slot of either
  }
  VTileLanes scale = VTileLanes::dry();
  scale.emitInto(recipes::scaleByte(scale,
                                    scale.input(Value(), uint64_t(1) << 31),
                                    dialect::toSupport(pol.algorithm),
                                    dialect::toSupport(pol.inf), pol.format),
                 Value());
  VTileLanes mult = VTileLanes::dry();
  VTileLanes::V bits = recipes::scaleMultiplierBits(mult, mult.input(Value()));
  if (VTileLanes::V flush = recipes::underflowFlush(
          mult, mult.input(Value(), uint64_t(1) << 31),
          dialect::toSupport(pol.underflow),
          pol.format))
    bits = mult.sel(flush, mult.c(0), bits);
  mult.emitInto(bits, Value());
  // The multiplier's slots exclude MB, which the scale byte may use.
  return std::max<int64_t>(scale.peakSlots(), mult.peakSlots() + 1);
}

void emitAbsBits(Emitter &e, Value dst, Value x, bool ignoreNaN, int64_t n) {
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type i32 = IntegerType::get(ctx, 32, IntegerType::Signed);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  if (!ignoreNaN)
    return e.scalar(BinaryKind::And, dst, x, u(0x7FFFFFFF), u32, n);
  // |x| bits minus 0x7F800001 is negative (as i32) unless x is a NaN; its
  // sign spread over the lane (an arithmetic shift) keeps x's bits or
  // clears them, and the sign is cleared last. In place: no mask, no
  // scratch.
  e.scalar(BinaryKind::And, dst, x, u(0x7FFFFFFF), u32, n);
  e.scalar(BinaryKind::sub, dst, dst, u(0x7F800001), u32, n);
  e.scalar(BinaryKind::shr, dst, dst, IntegerAttr::get(i32, 31), i32, n);
  e.binary(BinaryKind::And, dst, dst, x, u32, n);
  e.scalar(BinaryKind::And, dst, dst, u(0x7FFFFFFF), u32, n);
}

/// The NaN lanes of the f32 lanes `p` replaced by `value` (through the
/// scratch lanes `w` and the lane mask `mask`).
void replaceNaNLanes(Emitter &e, Value p, Value w, Value mask, Attribute value,
                     Type valueType, int64_t lanes) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  e.scalar(BinaryKind::And, w, p, IntegerAttr::get(u32, 0x7FFFFFFF), u32,
           lanes);
  e.cmps(CmpPredicate::gt, mask, w, IntegerAttr::get(u32, 0x7F800000), u32,
         lanes);
  e.dup(w, value, valueType, lanes);
  e.sel(p, mask, w, p, valueType, lanes);
}

/// Puts the f32 values `p` on the grid of `format` in `mode`, exactly: the
/// quantum 2^(max(e, emin) - mbits) from the exponent field, divide by it
/// (a power of two: exact), Truncate<float, mode> (keeps a zero's sign),
/// multiply back. Inf stays Inf. For E2M1 this is CANN's FP4 pre-rounding
/// (ascend-model.md, "Elements, FP4": the bf16 cast after it is exact and
/// the FP4 cast does not round again); the integer-code casts use it for
/// every format. `w` (n f32 lanes) is scratch.
void roundToGrid(Emitter &e, ElementFormat format, Value p, Value w,
                 RoundMode mode, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  e.scalar(BinaryKind::And, w, p, u(0x7F800000), u32, n);
  e.scalar(BinaryKind::max, w, w, u(uint32_t(127 + info.emin()) << 23), u32, n);
  e.scalar(BinaryKind::sub, w, w, u(info.mbits << 23), u32, n);
  e.binary(BinaryKind::div, p, p, w, f32, n);
  e.cast(p, f32, p, f32, mode, false, n);
  e.binary(BinaryKind::mul, p, p, w, f32, n);
}

/// The codes of `format` for the f32 values `p` by integer code, for a
/// format the core cannot cast to (FP6 on every chip; FP8 and FP4 on a
/// chip without MX casts, a2): the values are put on the format's grid
/// (roundToGrid, with the format's own quantum 2^(max(e, emin) -
/// mbits)) and clamped to +-max (saturation), then the code is read off the
/// f32 bits: a normal value's exponent field rebiased and its top mbits, a
/// subnormal's mantissa from v + 2^emin (exact), and the sign. NaN lanes
/// give +0 (`nanZero`), the NaN code where the format has one, else +max.
/// FP4 codes are then packed two a byte (element 2i in the low nibble),
/// the others one a byte. `w`, `x` (n u32 lanes each) and `mask` are
/// scratch; `p` is clobbered.
void emitEmulatedCodes(Emitter &e, ElementFormat format, RoundMode mode,
                       bool nanZero, Value p, Value w, Value x, Value mask,
                       Value codes, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  auto f = [&](float v) { return FloatAttr::get(f32, v); };
  int emin = info.emin(), m = int(info.mbits);
  bool nanCode = info.hasNaN && !nanZero;
  if (nanCode) {
    // x: the NaN code on NaN lanes, 0 elsewhere (ORed in with the sign);
    // NaN lanes then encode +0.
    e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x7F800000), u32, n);
    e.dup(x, u(info.nanCode), u32, n);
    e.dup(w, u(0), u32, n);
    e.sel(x, mask, x, w, u32, n);
    e.sel(p, mask, w, p, u32, n);
  } else {
    replaceNaNLanes(e, p, w, mask, f(nanZero ? 0.0f : info.maxFinite), f32, n);
  }
  roundToGrid(e, format, p, w, mode, n);
  e.scalar(BinaryKind::min, p, p, f(info.maxFinite), f32, n);
  e.scalar(BinaryKind::max, p, p, f(-info.maxFinite), f32, n);
  // |v| in w, the sign at the code's sign bit (and any NaN code) in p.
  e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
  e.scalar(BinaryKind::And, p, p, u(0x80000000), u32, n);
  e.scalar(BinaryKind::shr, p, p, u(32 - info.bits), u32, n);
  if (nanCode)
    e.binary(BinaryKind::Or, p, p, x, u32, n);
  // Subnormal lanes (|v| < 2^emin) read v + 2^emin less one exponent step,
  // normal lanes |v|; both then lose (126 + emin) exponent steps and keep
  // their top m mantissa bits.
  uint32_t minNormal = uint32_t(127 + emin) << 23;
  e.scalar(BinaryKind::add, x, w, f(std::ldexp(1.0f, emin)), f32, n);
  e.scalar(BinaryKind::sub, x, x, u(1u << 23), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(minNormal), u32, n);
  e.sel(x, mask, x, w, u32, n);
  e.scalar(BinaryKind::sub, x, x, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::shr, x, x, u(uint32_t(23 - m)), u32, n);
  e.binary(BinaryKind::Or, x, x, p, u32, n);
  if (format != ElementFormat::E2M1FN)
    return e.cast(codes, u8, x, u32, RoundMode::none, false, n);
  // FP4: one code a byte in w, then each 16-bit pair (lo | hi << 8) packed
  // to lo | hi << 4.
  e.cast(w, u8, x, u32, RoundMode::none, false, n);
  e.scalar(BinaryKind::shr, p, w, IntegerAttr::get(u16, 4), u16, n / 2);
  e.scalar(BinaryKind::And, p, p, IntegerAttr::get(u16, 0xF0), u16, n / 2);
  e.scalar(BinaryKind::And, w, w, IntegerAttr::get(u16, 0x0F), u16, n / 2);
  e.binary(BinaryKind::Or, p, p, w, u16, n / 2);
  e.cast(codes, u8, p, u16, RoundMode::none, false, n / 2);
}

/// The f32 values `d` of the codes of `format` in `w` (u32 lanes), by
/// integer code, for a format the core cannot cast from (FP6 on every chip;
/// FP8 and FP4 without MX casts): the sign moved to bit 31; a normal code's
/// exponent field rebiased by 126 + emin steps above its mantissa; a
/// subnormal's value (code + 2^m) * 2^(emin - m) less 2^emin (exact). E4M3's
/// NaN codes read as +-480 there and become NaN; E5M2's exponent field 31
/// reads as 2^16 or more and becomes +-Inf or NaN. `x` (n u32 lanes) and
/// `mask` are scratch; `w` is clobbered.
void emitEmulatedDecode(Emitter &e, ElementFormat format, Value w, Value x,
                        Value mask, Value d, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  int emin = info.emin(), m = int(info.mbits);
  e.scalar(BinaryKind::shr, x, w, u(info.bits - 1), u32, n);
  e.scalar(BinaryKind::shl, x, x, u(31), u32, n);
  e.scalar(BinaryKind::And, w, w, u(info.signBit() - 1u), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(1u << m), u32, n);
  e.scalar(BinaryKind::shl, w, w, u(uint32_t(23 - m)), u32, n);
  e.scalar(BinaryKind::add, w, w, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::add, d, w, u(1u << 23), u32, n);
  e.scalar(BinaryKind::add, d, d, FloatAttr::get(f32, -std::ldexp(1.0f, emin)),
           f32, n);
  e.sel(d, mask, d, w, u32, n);
  e.binary(BinaryKind::Or, d, d, x, u32, n);
  if (format == ElementFormat::E4M3FN) { // 0x7F, 0xFF: NaN (read as 480)
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x43F00000), u32, n);
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  } else if (format == ElementFormat::E5M2) { // exponent field 31
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x47800000), u32, n); // NaN codes
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x47800000), u32, n); // +-Inf
    e.scalar(BinaryKind::add, x, d, u(0x7F800000 - 0x47800000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  }
}

/// The FP8 codes of the f32 values `p` by the core's saturating cast. Its
/// NaN rule is the core's CTRL[50] (ascend-model.md §3.3): clear, as the
/// vendor's kernels leave it, a NaN gives +0 (`nan_element = zero`); set,
/// the format's NaN code. The bit is set before each cast, so that a cast
/// never depends on what ran before it.
void emitFP8Cast(Emitter &e, Type codeType, bool nanCode, Value p,
                 Value codes, int64_t n) {
  SetCtrlOp::create(e.b, e.loc, kCtrlFP8SatNaN, nanCode);
  e.cast(codes, codeType, p, e.b.getF32Type(), RoundMode::rint, true, n);
}

/// The codes of the f32 products `p` (ref: quantize's encode): rounded to
/// bf16 first under `product = bf16`; NaN lanes made +0 (`nan_element =
/// zero`) or, for FP4 whose cast gives 0, the largest code (+max); then the
/// FP8 cast, or for FP4 the cast to bf16 (exact for a bf16 element's
/// product down to 2^-126; below, `floor` keeps a negative product negative
/// so that its code rounds the same: docs/Rationale.md) and the FP4 cast.
/// With `preRound` (FP4 from f16 or f32 input, whose f32 products a cast to
/// bf16 would round once before the FP4 cast rounds again), CANN's
/// pre-rounding first puts each product on the E2M1 grid in f32: e =
/// max(unbiased exponent, 0) - 1, divide by 2^e (exact), truncate to an
/// integral value in the user's mode, multiply by 2^e; the bf16 cast is then
/// exact and the FP4 cast does not round. `q` (bf16 lanes), `w` and `mask`
/// are scratch.
void emitCodes(Emitter &e, Type codeType, dialect::Rounding rounding,
               bool productBF16, bool nanZero, bool preRound, bool emulate,
               Value p, Value q, Value w, Value mask, Value codes, int64_t n) {
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  bool fp4 = isa<Float4E2M1FNType>(codeType);
  if (productBF16) {
    e.cast(q, bf16, p, f32, RoundMode::rint, false, n);
    e.cast(p, f32, q, bf16, RoundMode::none, false, n);
  }
  ElementFormat format = *dialect::getElementFormat(codeType);
  RoundMode mode = rounding == dialect::Rounding::away    ? RoundMode::round
                   : rounding == dialect::Rounding::floor ? RoundMode::floor
                                                          : RoundMode::rint;
  if (emulate) // `q` holds u32 lanes then
    return emitEmulatedCodes(e, format, mode, nanZero, p, w, q, mask, codes, n);
  if (!fp4)
    return emitFP8Cast(e, codeType, !nanZero, p, codes, n);
  if (!nanZero) // the FP4 cast gives +0 for a NaN: the largest code instead
    replaceNaNLanes(
        e, p, w, mask,
        FloatAttr::get(f32, formatInfo(ElementFormat::E2M1FN).maxFinite), f32,
        n);
  if (preRound)
    roundToGrid(e, ElementFormat::E2M1FN, p, w, mode, n);
  RoundMode toBF16 =
      rounding == dialect::Rounding::floor ? RoundMode::floor : RoundMode::rint;
  e.cast(q, bf16, p, f32, toBF16, false, n);
  e.cast(codes, codeType, q, bf16, mode, true, n);
}

CodeScratch codeScratch(ElementFormat format, dialect::NanElement nanElement,
                        bool emulate) {
  CodeScratch s;
  s.w = format == ElementFormat::E2M1FN || emulate;
  s.mask = s.w;
  return s;
}

/// The f32 values `dBuf` of a dequantize's codes at `codesUB` (exact): the
/// core's casts, or integer code (FP6, and every format on a2). `qBuf`
/// (bf16 lanes, u32 when emulated), `wBuf` and `laneMask` are scratch.
void emitDecode(Emitter &e, const DequantizePlan &p, Value codesUB, Value qBuf,
                Value wBuf, Value laneMask, Value dBuf, int64_t N) {
  MLIRContext *ctx = e.b.getContext();
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  bool fp4 = p.codeBits == 4;
  if (p.emulate && fp4) {
    // Nibbles to bytes: each packed byte (u16 lane lo | hi << 4) becomes
    // lo | hi << 8, one code a byte, then one a u32 lane.
    Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
    auto u16v = [&](int64_t v) { return IntegerAttr::get(u16, v); };
    e.cast(qBuf, u16, codesUB, u8, RoundMode::none, false, N / 2);
    e.scalar(BinaryKind::And, wBuf, qBuf, u16v(0x0F), u16, N / 2);
    e.scalar(BinaryKind::And, qBuf, qBuf, u16v(0xF0), u16, N / 2);
    e.scalar(BinaryKind::shl, qBuf, qBuf, u16v(4), u16, N / 2);
    e.binary(BinaryKind::Or, qBuf, qBuf, wBuf, u16, N / 2);
    e.cast(wBuf, u32, qBuf, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (p.emulate) {
    e.cast(wBuf, u32, codesUB, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (fp4) {
    e.cast(qBuf, bf16, codesUB, p.codeType, RoundMode::none, false, N);
    e.cast(dBuf, f32, qBuf, bf16, RoundMode::none, false, N);
  } else {
    e.cast(dBuf, f32, codesUB, p.codeType, RoundMode::none, false, N);
  }
}

/// The scale values 2^(s - 127) as f32 bits from the widened scale bytes
/// `sBuf` (recipes::scaleValueBits; `constBuf` its one scratch slot).
void emitScaleValues(Emitter &e, Value sBuf, Value mbBuf, Value constBuf,
                     Value blockMask, int64_t NB, int64_t maskLanes) {
  VTileLanes l(&e, NB, maskLanes, blockMask, {constBuf});
  l.emitInto(recipes::scaleValueBits(l, l.input(sBuf, 256)), mbBuf);
}

/// The level-0 scales of a two-level quantize from the maxima of the finite
/// |x| of each 512 (`l0`, f32 lanes, in place): times fl32(1/6), and 0 below
/// 2^-126 (ref: twoLevelQuantize, level 0). `mask` and `cst` are scratch.
void emitLevel0Scales(Emitter &e, Value l0, Value mask, Value cst,
                      int64_t lanes) {
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  e.scalar(BinaryKind::mul, l0, l0,
           FloatAttr::get(f32,
                          1.0f / formatInfo(ElementFormat::E2M1FN).maxFinite),
           f32, lanes);
  e.cmps(CmpPredicate::lt, mask, l0, IntegerAttr::get(u32, 0x00800000), u32,
         lanes);
  e.dup(cst, IntegerAttr::get(u32, 0), u32, lanes);
  e.sel(l0, mask, cst, l0, u32, lanes);
}

/// v = ftz(v): subnormal f32 lanes become zeros of their sign (the CANN
/// kernel's Div, `div_denormals = ftz`). `w` and `mask` are scratch.
void emitFlushSubnormals(Emitter &e, Value v, Value w, Value mask,
                         int64_t n) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t c) { return IntegerAttr::get(u32, c); };
  e.scalar(BinaryKind::And, w, v, u(0x7FFFFFFF), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(0x00800000), u32, n);
  e.scalar(BinaryKind::And, w, v, u(0x80000000), u32, n);
  e.sel(v, mask, w, v, u32, n);
}

} // namespace mxq::vtile::lowering
