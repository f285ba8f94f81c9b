//===- Dim.cpp - Simplified symbolic sizes --------------------------------===//
//
// The polynomial normal form behind Dim: see Dim.h. Overflow anywhere makes
// simplification give up and keep the tree as built.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/Dim.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace pt2ir::infer {

namespace {

using sym::Expr;
using sym::ExprKind;

/// A product of atoms with exponents, sorted by atom key.
using Monomial = std::vector<std::pair<std::string, unsigned>>;

/// A sum of integer multiples of monomials; zero coefficients are dropped.
struct Poly {
  std::map<Monomial, int64_t> terms;
  std::map<std::string, Expr, std::less<>> atoms;

  static Poly constant(int64_t c) {
    Poly p;
    if (c != 0)
      p.terms[{}] = c;
    return p;
  }
  static Poly atom(const Expr &e) {
    Poly p;
    std::string key = sym::toString(e);
    p.terms[{{key, 1}}] = 1;
    p.atoms.emplace(std::move(key), e);
    return p;
  }
  std::optional<int64_t> asConstant() const {
    if (terms.empty())
      return 0;
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }
};

bool addTerm(Poly &p, const Monomial &m, int64_t c) {
  if (c == 0)
    return true;
  auto [it, inserted] = p.terms.emplace(m, c);
  if (inserted)
    return true;
  if (__builtin_add_overflow(it->second, c, &it->second))
    return false;
  if (it->second == 0)
    p.terms.erase(it);
  return true;
}

void mergeAtoms(Poly &into, const Poly &from) {
  for (const auto &[k, e] : from.atoms)
    into.atoms.emplace(k, e);
}

std::optional<Poly> addPoly(const Poly &a, const Poly &b, int64_t sign = 1) {
  Poly r = a;
  mergeAtoms(r, b);
  for (const auto &[m, c] : b.terms) {
    int64_t sc;
    if (__builtin_mul_overflow(c, sign, &sc) || !addTerm(r, m, sc))
      return std::nullopt;
  }
  return r;
}

Monomial mulMonomial(const Monomial &a, const Monomial &b) {
  Monomial r;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first))
      r.push_back(a[i++]);
    else if (i == a.size() || b[j].first < a[i].first)
      r.push_back(b[j++]);
    else {
      r.emplace_back(a[i].first, a[i].second + b[j].second);
      ++i;
      ++j;
    }
  }
  return r;
}

std::optional<Poly> mulPoly(const Poly &a, const Poly &b) {
  Poly r;
  mergeAtoms(r, a);
  mergeAtoms(r, b);
  for (const auto &[ma, ca] : a.terms)
    for (const auto &[mb, cb] : b.terms) {
      int64_t c;
      if (__builtin_mul_overflow(ca, cb, &c) ||
          !addTerm(r, mulMonomial(ma, mb), c))
        return std::nullopt;
    }
  return r;
}

int64_t pyFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t pyMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

Expr fromPoly(const Poly &p);
std::optional<Poly> toPoly(const Expr &e);

/// Simplified operand, or the operand itself when it has no normal form.
Expr simplifiedOperand(const Expr &e) { return simplify(e); }

std::optional<Poly> divModPoly(const Expr &e, bool isDiv) {
  std::optional<Poly> num = toPoly(e.operand(0));
  std::optional<Poly> den = toPoly(e.operand(1));
  if (num && den) {
    std::optional<int64_t> c = den->asConstant();
    std::optional<int64_t> n = num->asConstant();
    if (c && *c == 0)
      return std::nullopt;
    if (c && n) {
      if (*c == -1 && *n == std::numeric_limits<int64_t>::min())
        return std::nullopt;
      return Poly::constant(isDiv ? pyFloorDiv(*n, *c) : pyMod(*n, *c));
    }
    if (!c && den->terms.size() == 1) {
      // A monomial divisor that divides every term exactly (sizes are
      // positive, so the symbols in it are not zero).
      const auto &[dm, dc] = *den->terms.begin();
      Poly q;
      q.atoms = num->atoms;
      bool exact = true;
      for (const auto &[m, k] : num->terms) {
        if (k % dc != 0) {
          exact = false;
          break;
        }
        Monomial rest;
        size_t j = 0;
        for (const auto &f : m) {
          unsigned e = f.second;
          if (j < dm.size() && dm[j].first == f.first) {
            if (dm[j].second > e) {
              exact = false;
              break;
            }
            e -= dm[j].second;
            ++j;
          }
          if (e)
            rest.emplace_back(f.first, e);
        }
        if (!exact || j != dm.size()) {
          exact = false;
          break;
        }
        q.terms[rest] = k / dc;
      }
      if (exact)
        return isDiv ? q : Poly::constant(0);
    }
    if (c && *c > 0) {
      // Split into the part each of whose coefficients `c` divides and the
      // rest; a constant rest divides exactly.
      Poly divisible, rest;
      divisible.atoms = num->atoms;
      rest.atoms = num->atoms;
      for (const auto &[m, k] : num->terms)
        (k % *c == 0 ? divisible : rest).terms[m] = k;
      if (std::optional<int64_t> r = rest.asConstant()) {
        if (!isDiv)
          return Poly::constant(pyMod(*r, *c));
        Poly q;
        q.atoms = num->atoms;
        for (const auto &[m, k] : divisible.terms)
          q.terms[m] = k / *c;
        return addPoly(q, Poly::constant(pyFloorDiv(*r, *c)));
      }
    }
    Expr a = fromPoly(*num), b = fromPoly(*den);
    return Poly::atom(isDiv ? sym::makeFloorDiv(a, b) : sym::makeMod(a, b));
  }
  return std::nullopt;
}

std::optional<Poly> minMaxPoly(const Expr &e, bool isMax) {
  std::vector<std::pair<std::string, Expr>> ops;
  std::optional<int64_t> folded;
  for (const Expr &op : e.operands()) {
    std::optional<Poly> p = toPoly(op);
    if (!p)
      return std::nullopt;
    if (std::optional<int64_t> c = p->asConstant()) {
      folded = !folded ? *c : (isMax ? std::max(*folded, *c)
                                     : std::min(*folded, *c));
      continue;
    }
    Expr s = fromPoly(*p);
    ops.emplace_back(sym::toString(s), s);
  }
  if (ops.empty())
    return folded ? std::optional<Poly>(Poly::constant(*folded)) : std::nullopt;
  llvm::sort(ops, [](const auto &a, const auto &b) { return a.first < b.first; });
  ops.erase(std::unique(ops.begin(), ops.end(),
                        [](const auto &a, const auto &b) {
                          return a.first == b.first;
                        }),
            ops.end());
  std::vector<Expr> operands;
  if (folded)
    operands.push_back(sym::makeInteger(*folded));
  for (auto &op : ops)
    operands.push_back(op.second);
  if (operands.size() == 1)
    return toPoly(operands.front());
  return Poly::atom(isMax ? sym::makeMax(operands) : sym::makeMin(operands));
}

std::optional<Poly> toPoly(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
    return Poly::constant(e.integerValue());
  case ExprKind::Symbol:
    return Poly::atom(e);
  case ExprKind::Add: {
    Poly r;
    for (const Expr &op : e.operands()) {
      std::optional<Poly> p = toPoly(op);
      if (!p)
        return std::nullopt;
      std::optional<Poly> s = addPoly(r, *p);
      if (!s)
        return std::nullopt;
      r = std::move(*s);
    }
    return r;
  }
  case ExprKind::Mul: {
    Poly r = Poly::constant(1);
    for (const Expr &op : e.operands()) {
      std::optional<Poly> p = toPoly(op);
      if (!p)
        return std::nullopt;
      std::optional<Poly> s = mulPoly(r, *p);
      if (!s)
        return std::nullopt;
      r = std::move(*s);
    }
    return r;
  }
  case ExprKind::Pow: {
    std::optional<int64_t> n = sym::asInteger(e.operand(1));
    std::optional<Poly> base = toPoly(e.operand(0));
    if (!n || *n < 0 || *n > 16 || !base)
      return std::nullopt;
    Poly r = Poly::constant(1);
    for (int64_t i = 0; i < *n; ++i) {
      std::optional<Poly> s = mulPoly(r, *base);
      if (!s)
        return std::nullopt;
      r = std::move(*s);
    }
    return r;
  }
  case ExprKind::FloorDiv:
    return divModPoly(e, /*isDiv=*/true);
  case ExprKind::Mod:
    return divModPoly(e, /*isDiv=*/false);
  case ExprKind::Max:
    return minMaxPoly(e, /*isMax=*/true);
  case ExprKind::Min:
    return minMaxPoly(e, /*isMax=*/false);
  case ExprKind::Call: {
    std::vector<Expr> ops;
    for (const Expr &op : e.operands())
      ops.push_back(simplifiedOperand(op));
    return Poly::atom(sym::rebuildWithOperands(e, ops));
  }
  default:
    return std::nullopt;
  }
}

unsigned degree(const Monomial &m) {
  unsigned d = 0;
  for (const auto &f : m)
    d += f.second;
  return d;
}

Expr fromPoly(const Poly &p) {
  if (p.terms.empty())
    return sym::makeInteger(0);
  std::vector<const std::pair<const Monomial, int64_t> *> order;
  for (const auto &t : p.terms)
    order.push_back(&t);
  // Highest degree first, the constant last (as sympy prints `s0 + 1`).
  std::stable_sort(order.begin(), order.end(), [](auto *a, auto *b) {
    return degree(a->first) > degree(b->first);
  });
  std::vector<Expr> addends;
  for (auto *t : order) {
    std::vector<Expr> factors;
    if (t->second != 1 || t->first.empty())
      factors.push_back(sym::makeInteger(t->second));
    for (const auto &[key, exp] : t->first) {
      Expr atom = p.atoms.find(key)->second;
      factors.push_back(exp == 1 ? atom
                                 : sym::makePow(atom, sym::makeInteger(exp)));
    }
    addends.push_back(factors.size() == 1 ? factors.front()
                                          : sym::makeMul(factors));
  }
  return addends.size() == 1 ? addends.front() : sym::makeAdd(addends);
}

/// Interval arithmetic on doubles, with 0 * inf = 0.
struct Interval {
  double lo, hi;
};

double mulSat(double a, double b) {
  if (a == 0 || b == 0)
    return 0;
  return a * b;
}

Interval mulInterval(Interval a, Interval b) {
  double c[] = {mulSat(a.lo, b.lo), mulSat(a.lo, b.hi), mulSat(a.hi, b.lo),
                mulSat(a.hi, b.hi)};
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

constexpr double kInf = std::numeric_limits<double>::infinity();

Interval atomInterval(const Expr &atom, RangeLookup lookup) {
  if (std::optional<llvm::StringRef> name = sym::asSymbol(atom))
    if (SymbolRange r = lookup(*name))
      return {r->first, r->second};
  if (atom.kind() == ExprKind::Mod)
    if (std::optional<int64_t> c = sym::asInteger(atom.operand(1)); c && *c > 0)
      return {0, double(*c - 1)};
  return {-kInf, kInf};
}

/// Symbolic arithmetic is costly (a polynomial of ordered maps and strings
/// per operand, a new tree for the result), and shape inference repeats the
/// same few operations on every node: `s0 * 768` for each contiguous stride,
/// the same product for each view. So the results of the symbolic cases are
/// remembered per thread, keyed by operand identity: an expression node (the
/// operands' nodes stay alive in the entry, so an address is never reused
/// while it is a key) or a constant. The operations are pure, so an entry
/// gives exactly what recomputing would.
enum class CachedOp : uint8_t {
  Add,
  Sub,
  Mul,
  FloorDiv,
  Mod,
  Max,
  Min,
  Compare
};

struct DimKey {
  const sym::ExprNode *node = nullptr;
  int64_t value = 0;
};

DimKey keyOf(const Dim &d) {
  return {d.getExpr().getNode(), d.isStatic() ? d.getValue() : 0};
}

struct OpKey {
  DimKey a, b;
  uint8_t op = 0;
};

struct OpKeyInfo {
  static OpKey getEmptyKey() { return {{}, {}, 0xff}; }
  static OpKey getTombstoneKey() { return {{}, {}, 0xfe}; }
  static unsigned getHashValue(const OpKey &k) {
    // Cheap mixing: the keys are few and hash_combine is a large part of a
    // hit's cost.
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(k.a.node)) ^
                 (uint64_t(k.a.value) * 0x9e3779b97f4a7c15ULL);
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
    h ^= uint64_t(reinterpret_cast<uintptr_t>(k.b.node)) ^
         (uint64_t(k.b.value) * 0x94d049bb133111ebULL) ^ k.op;
    h = (h ^ (h >> 31)) * 0x9e3779b97f4a7c15ULL;
    return unsigned(h ^ (h >> 32));
  }
  static bool isEqual(const OpKey &x, const OpKey &y) {
    return x.op == y.op && x.a.node == y.a.node && x.a.value == y.a.value &&
           x.b.node == y.b.node && x.b.value == y.b.value;
  }
};

struct OpEntry {
  /// The operands, held so that their nodes outlive the key.
  Dim a, b;
  Dim result;
  Equality equality = Equality::Unknown;
};

/// Entries beyond this many start the table afresh (bounds the memory a
/// long-lived thread keeps; a program has few distinct symbolic operations).
constexpr size_t kMaxCachedOps = 1 << 14;

llvm::DenseMap<OpKey, OpEntry, OpKeyInfo> &opCache() {
  thread_local llvm::DenseMap<OpKey, OpEntry, OpKeyInfo> cache;
  return cache;
}

/// The cached entry for `op` on `a` and `b`, or null.
const OpEntry *findCached(CachedOp op, const Dim &a, const Dim &b) {
  auto &cache = opCache();
  auto it = cache.find({keyOf(a), keyOf(b), uint8_t(op)});
  return it == cache.end() ? nullptr : &it->second;
}

void remember(CachedOp op, const Dim &a, const Dim &b, OpEntry entry) {
  auto &cache = opCache();
  if (cache.size() >= kMaxCachedOps)
    cache.clear();
  entry.a = a;
  entry.b = b;
  cache.try_emplace({keyOf(a), keyOf(b), uint8_t(op)}, std::move(entry));
}

/// `compute()` (a symbolic result of `op` on `a` and `b`), from the cache
/// when it has been computed before.
template <typename Fn>
Dim cachedResult(CachedOp op, const Dim &a, const Dim &b, Fn compute) {
  if (const OpEntry *e = findCached(op, a, b))
    return e->result;
  Dim r = compute();
  OpEntry entry;
  entry.result = r;
  remember(op, a, b, std::move(entry));
  return r;
}

Equality compareDimsUncached(const Dim &a, const Dim &b, RangeLookup lookup);

} // namespace

sym::Expr simplify(const sym::Expr &expr) {
  if (expr.isNull() || expr.kind() == ExprKind::Integer ||
      expr.kind() == ExprKind::Symbol)
    return expr;
  std::optional<Poly> p = toPoly(expr);
  if (!p)
    return expr;
  return fromPoly(*p);
}

Dim Dim::symbolic(const sym::Expr &e) {
  Expr s = simplify(e);
  if (std::optional<int64_t> v = sym::asInteger(s))
    return Dim(*v);
  Dim d;
  d.expr = std::move(s);
  return d;
}

sym::Expr Dim::toExpr() const {
  return expr ? expr : sym::makeInteger(value);
}

std::string Dim::str() const {
  if (unknownDim)
    return "?";
  return expr ? sym::toString(expr) : std::to_string(value);
}

Dim operator+(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  int64_t r;
  if (a.isStatic() && b.isStatic() &&
      !__builtin_add_overflow(a.getValue(), b.getValue(), &r))
    return Dim(r);
  if (a.isStaticValue(0))
    return b;
  if (b.isStaticValue(0))
    return a;
  return cachedResult(CachedOp::Add, a, b, [&] {
    return Dim::symbolic(sym::makeAdd({a.toExpr(), b.toExpr()}));
  });
}

Dim operator-(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  int64_t r;
  if (a.isStatic() && b.isStatic() &&
      !__builtin_sub_overflow(a.getValue(), b.getValue(), &r))
    return Dim(r);
  if (b.isStaticValue(0))
    return a;
  return cachedResult(CachedOp::Sub, a, b, [&] {
    return Dim::symbolic(sym::makeAdd(
        {a.toExpr(), sym::makeMul({sym::makeInteger(-1), b.toExpr()})}));
  });
}

Dim operator*(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  int64_t r;
  if (a.isStatic() && b.isStatic() &&
      !__builtin_mul_overflow(a.getValue(), b.getValue(), &r))
    return Dim(r);
  if (a.isStaticValue(1))
    return b;
  if (b.isStaticValue(1))
    return a;
  return cachedResult(CachedOp::Mul, a, b, [&] {
    return Dim::symbolic(sym::makeMul({a.toExpr(), b.toExpr()}));
  });
}

std::optional<Dim> floorDiv(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  if (b.isStaticValue(0))
    return std::nullopt;
  if (a.isStatic() && b.isStatic()) {
    if (b.getValue() == -1 && a.getValue() == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    return Dim(pyFloorDiv(a.getValue(), b.getValue()));
  }
  if (b.isStaticValue(1))
    return a;
  return cachedResult(CachedOp::FloorDiv, a, b, [&] {
    return Dim::symbolic(sym::makeFloorDiv(a.toExpr(), b.toExpr()));
  });
}

std::optional<Dim> mod(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  if (b.isStaticValue(0))
    return std::nullopt;
  if (a.isStatic() && b.isStatic()) {
    if (b.getValue() == -1)
      return Dim(0);
    return Dim(pyMod(a.getValue(), b.getValue()));
  }
  return cachedResult(CachedOp::Mod, a, b, [&] {
    return Dim::symbolic(sym::makeMod(a.toExpr(), b.toExpr()));
  });
}

std::optional<Dim> ceilDiv(const Dim &a, const Dim &b) {
  return floorDiv(a + b - Dim(1), b);
}

Dim maxDim(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  if (a.isStatic() && b.isStatic())
    return Dim(std::max(a.getValue(), b.getValue()));
  return cachedResult(CachedOp::Max, a, b, [&] {
    return Dim::symbolic(sym::makeMax({a.toExpr(), b.toExpr()}));
  });
}

Dim minDim(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Dim::unknown();
  if (a.isStatic() && b.isStatic())
    return Dim(std::min(a.getValue(), b.getValue()));
  return cachedResult(CachedOp::Min, a, b, [&] {
    return Dim::symbolic(sym::makeMin({a.toExpr(), b.toExpr()}));
  });
}

Dim product(llvm::ArrayRef<Dim> dims) {
  Dim r(1);
  for (const Dim &d : dims)
    r = r * d;
  return r;
}

Shape contiguousStrides(llvm::ArrayRef<Dim> shape) {
  Shape strides(shape.size());
  Dim running(1);
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = running;
    // The product of all the dimensions is no stride.
    if (i > 0)
      running = running * shape[i];
  }
  return strides;
}

Equality compareDims(const Dim &a, const Dim &b, RangeLookup lookup) {
  if (a.isUnknown() || b.isUnknown())
    return Equality::Unknown;
  if (a.isStatic() && b.isStatic())
    return a.getValue() == b.getValue() ? Equality::Equal : Equality::Unequal;
  return compareDimsUncached(a, b, lookup);
}

namespace {

Equality compareDimsUncached(const Dim &a, const Dim &b, RangeLookup lookup) {
  std::optional<Poly> pa = toPoly(a.toExpr()), pb = toPoly(b.toExpr());
  if (!pa || !pb)
    return a.toExpr() == b.toExpr() ? Equality::Equal : Equality::Unknown;
  std::optional<Poly> diff = addPoly(*pa, *pb, -1);
  if (!diff)
    return Equality::Unknown;
  if (std::optional<int64_t> c = diff->asConstant())
    return *c == 0 ? Equality::Equal : Equality::Unequal;
  Interval total{0, 0};
  for (const auto &[m, c] : diff->terms) {
    Interval term{double(c), double(c)};
    for (const auto &[key, exp] : m) {
      Interval ai = atomInterval(diff->atoms.find(key)->second, lookup);
      for (unsigned i = 0; i < exp; ++i)
        term = mulInterval(term, ai);
    }
    total.lo += term.lo;
    total.hi += term.hi;
    if (std::isnan(total.lo) || std::isnan(total.hi))
      return Equality::Unknown;
  }
  if (total.lo > 0 || total.hi < 0)
    return Equality::Unequal;
  return Equality::Unknown;
}

} // namespace

Equality compareDims(const Dim &a, const Dim &b) {
  if (a.isUnknown() || b.isUnknown())
    return Equality::Unknown;
  if (a.isStatic() && b.isStatic())
    return a.getValue() == b.getValue() ? Equality::Equal : Equality::Unequal;
  if (const OpEntry *e = findCached(CachedOp::Compare, a, b))
    return e->equality;
  Equality eq = compareDimsUncached(
      a, b, [](llvm::StringRef) -> SymbolRange { return std::nullopt; });
  OpEntry entry;
  entry.equality = eq;
  remember(CachedOp::Compare, a, b, std::move(entry));
  return eq;
}

std::string formatShape(llvm::ArrayRef<Dim> shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      out += ", ";
    out += shape[i].str();
  }
  return out + "]";
}

} // namespace pt2ir::infer
