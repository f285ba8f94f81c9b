//===- TypePromotion.h - torch's dtype promotion rules ------------*- C++ -*-===//
//
// The result dtype of an operator over tensors and Python numbers, as torch
// computes it: the promotion lattice of two dtypes (`promoteTypes`), and the
// three-tier result type (`ResultTypeState`): tensors with dimensions win
// over zero-dim tensors, which win over Python numbers ("wrapped numbers"),
// except that a higher category (bool < integral < floating < complex) from
// a lower tier still raises the result to that category's default dtype.
//
// This file does not know operators; rules choose how to use the result
// (int-to-float, always-bool, ...).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_INFER_TYPEPROMOTION_H
#define PT2IR_INFER_TYPEPROMOTION_H

#include "pt2ir/ir/Enums.h"

#include <optional>

namespace pt2ir::infer {

/// The category of a Python number (or of a dtype).
enum class ScalarCategory : uint8_t { Bool, Integral, Floating, Complex };

bool isFloatingType(ScalarType t);
bool isComplexType(ScalarType t);
/// Integral types; bool counts only with `includeBool`.
bool isIntegralType(ScalarType t, bool includeBool);
ScalarCategory categoryOf(ScalarType t);

/// The complex dtype with `t`'s precision (f32 -> c64); complex stays.
ScalarType toComplexType(ScalarType t);
/// The real dtype of a complex one (c64 -> f32); others stay.
ScalarType toRealType(ScalarType t);
/// The dtype torch computes in for `t` (f16/bf16 -> f32), as reductions
/// and norms use for their statistics.
ScalarType computationType(ScalarType t);

/// The default dtype (float32) and the default complex dtype (complex64).
constexpr ScalarType kDefaultFloat = ScalarType::FLOAT;
constexpr ScalarType kDefaultComplex = ScalarType::COMPLEXFLOAT;

/// torch.promote_types; nullopt for pairs torch refuses (float8 mixes,
/// unsigned 16/32/64 with signed types).
std::optional<ScalarType> promoteTypes(ScalarType a, ScalarType b);

/// torch.result_type over a sequence of operands.
class ResultTypeState {
public:
  /// A tensor operand: rank 0 tensors go to the zero-dim tier.
  void addTensor(ScalarType dtype, bool zeroDim);
  /// A Python number of `category`.
  void addScalar(ScalarCategory category);
  /// The result; nullopt if there were no operands or promotion failed.
  std::optional<ScalarType> result() const;

private:
  std::optional<ScalarType> dimResult, zeroResult, wrappedResult;
  bool failed = false;
};

} // namespace pt2ir::infer

#endif
