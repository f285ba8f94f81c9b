//===- TypePromotion.cpp - torch's dtype promotion rules ------------------===//

#include "pt2ir/infer/TypePromotion.h"

namespace pt2ir::infer {

bool isFloatingType(ScalarType t) {
  switch (t) {
  case ScalarType::HALF:
  case ScalarType::FLOAT:
  case ScalarType::DOUBLE:
  case ScalarType::BFLOAT16:
  case ScalarType::FLOAT8E4M3FN:
  case ScalarType::FLOAT8E5M2:
  case ScalarType::FLOAT8E4M3FNUZ:
  case ScalarType::FLOAT8E5M2FNUZ:
  case ScalarType::FLOAT8E8M0FNU:
    return true;
  default:
    return false;
  }
}

bool isComplexType(ScalarType t) {
  return t == ScalarType::COMPLEXHALF || t == ScalarType::COMPLEXFLOAT ||
         t == ScalarType::COMPLEXDOUBLE;
}

bool isIntegralType(ScalarType t, bool includeBool) {
  switch (t) {
  case ScalarType::BYTE:
  case ScalarType::CHAR:
  case ScalarType::SHORT:
  case ScalarType::INT:
  case ScalarType::LONG:
  case ScalarType::UINT16:
  case ScalarType::UINT32:
  case ScalarType::UINT64:
    return true;
  case ScalarType::BOOL:
    return includeBool;
  default:
    return false;
  }
}

ScalarCategory categoryOf(ScalarType t) {
  if (t == ScalarType::BOOL)
    return ScalarCategory::Bool;
  if (isComplexType(t))
    return ScalarCategory::Complex;
  if (isFloatingType(t))
    return ScalarCategory::Floating;
  return ScalarCategory::Integral;
}

ScalarType toComplexType(ScalarType t) {
  switch (t) {
  case ScalarType::HALF:
    return ScalarType::COMPLEXHALF;
  case ScalarType::FLOAT:
    return ScalarType::COMPLEXFLOAT;
  case ScalarType::DOUBLE:
    return ScalarType::COMPLEXDOUBLE;
  default:
    return isComplexType(t) ? t : ScalarType::COMPLEXFLOAT;
  }
}

ScalarType toRealType(ScalarType t) {
  switch (t) {
  case ScalarType::COMPLEXHALF:
    return ScalarType::HALF;
  case ScalarType::COMPLEXFLOAT:
    return ScalarType::FLOAT;
  case ScalarType::COMPLEXDOUBLE:
    return ScalarType::DOUBLE;
  default:
    return t;
  }
}

ScalarType computationType(ScalarType t) {
  if (t == ScalarType::HALF || t == ScalarType::BFLOAT16)
    return ScalarType::FLOAT;
  if (t == ScalarType::COMPLEXHALF)
    return ScalarType::COMPLEXFLOAT;
  return t;
}

namespace {

bool isFloat8(ScalarType t) {
  return t == ScalarType::FLOAT8E4M3FN || t == ScalarType::FLOAT8E5M2 ||
         t == ScalarType::FLOAT8E4M3FNUZ || t == ScalarType::FLOAT8E5M2FNUZ ||
         t == ScalarType::FLOAT8E8M0FNU;
}

/// Signed integer width in bytes; uint8 is 1 but unsigned.
unsigned width(ScalarType t) { return scalarTypeByteSize(t); }

} // namespace

std::optional<ScalarType> promoteTypes(ScalarType a, ScalarType b) {
  if (a == b)
    return a;
  if (a == ScalarType::BOOL)
    return b;
  if (b == ScalarType::BOOL)
    return a;
  if (isFloat8(a) || isFloat8(b))
    return std::nullopt;
  bool ca = isComplexType(a), cb = isComplexType(b);
  bool fa = isFloatingType(a), fb = isFloatingType(b);
  if (ca || cb) {
    // Complex, with the precision of the widest real part involved.
    std::optional<ScalarType> ra, rb;
    if (ca || fa)
      ra = toRealType(a);
    if (cb || fb)
      rb = toRealType(b);
    std::optional<ScalarType> real = ra && rb ? promoteTypes(*ra, *rb) : (ra ? ra : rb);
    if (!real)
      return std::nullopt;
    return toComplexType(*real);
  }
  if (fa && fb) {
    if ((a == ScalarType::HALF && b == ScalarType::BFLOAT16) ||
        (a == ScalarType::BFLOAT16 && b == ScalarType::HALF))
      return ScalarType::FLOAT;
    return width(a) >= width(b) ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  // Both integral.
  auto isUnsigned = [](ScalarType t) {
    return t == ScalarType::BYTE || t == ScalarType::UINT16 ||
           t == ScalarType::UINT32 || t == ScalarType::UINT64;
  };
  bool ua = isUnsigned(a), ub = isUnsigned(b);
  if (ua && ub)
    return width(a) >= width(b) ? a : b;
  if (ua || ub) {
    ScalarType u = ua ? a : b, s = ua ? b : a;
    if (u != ScalarType::BYTE)
      return std::nullopt;
    // uint8 with a signed type: the signed type, at least int16.
    return width(s) >= 2 ? s : ScalarType::SHORT;
  }
  return width(a) >= width(b) ? a : b;
}

namespace {

std::optional<ScalarType> promoteSkip(std::optional<ScalarType> a,
                                      std::optional<ScalarType> b,
                                      bool &failed) {
  if (!a)
    return b;
  if (!b)
    return a;
  std::optional<ScalarType> r = promoteTypes(*a, *b);
  if (!r)
    failed = true;
  return r;
}

std::optional<ScalarType> combineCategories(std::optional<ScalarType> higher,
                                            std::optional<ScalarType> lower,
                                            bool &failed) {
  if (!higher)
    return lower;
  if (isComplexType(*higher))
    return higher;
  if (lower && isComplexType(*lower))
    return isFloatingType(*higher) ? toComplexType(*higher) : *lower;
  if (isFloatingType(*higher))
    return higher;
  if (*higher == ScalarType::BOOL || (lower && isFloatingType(*lower)))
    return promoteSkip(higher, lower, failed);
  return higher;
}

} // namespace

void ResultTypeState::addTensor(ScalarType dtype, bool zeroDim) {
  auto &slot = zeroDim ? zeroResult : dimResult;
  slot = promoteSkip(slot, dtype, failed);
}

void ResultTypeState::addScalar(ScalarCategory category) {
  ScalarType t = ScalarType::LONG;
  switch (category) {
  case ScalarCategory::Bool:
    t = ScalarType::BOOL;
    break;
  case ScalarCategory::Integral:
    t = ScalarType::LONG;
    break;
  case ScalarCategory::Floating:
    t = kDefaultFloat;
    break;
  case ScalarCategory::Complex:
    t = kDefaultComplex;
    break;
  }
  wrappedResult = promoteSkip(wrappedResult, t, failed);
}

std::optional<ScalarType> ResultTypeState::result() const {
  bool f = failed;
  std::optional<ScalarType> r = combineCategories(
      dimResult, combineCategories(zeroResult, wrappedResult, f), f);
  if (f)
    return std::nullopt;
  return r;
}

} // namespace pt2ir::infer
