//===- Value.cpp - SSA values and their uses ------------------------------===//

#include "pt2ir/ir/Value.h"
#include "pt2ir/ir/Graph.h"

namespace pt2ir {

llvm::StringRef valueTypeName(ValueType t) {
  switch (t) {
  case ValueType::Tensor: return "Tensor";
  case ValueType::SymInt: return "SymInt";
  case ValueType::SymBool: return "SymBool";
  case ValueType::SymFloat: return "SymFloat";
  case ValueType::CustomObj: return "CustomObj";
  }
  return "?";
}

llvm::StringRef Use::getName() const { return value ? value->getName() : name; }

void Use::unlink() {
  if (!prev)
    return;
  *prev = next;
  if (next)
    next->prev = prev;
  next = nullptr;
  prev = nullptr;
}

void Use::set(Value *v) {
  assert(role == UseRole::Operand && "only operands can be retargeted");
  unlink();
  value = v;
  if (!v)
    return;
  name = v->getName();
  next = v->firstUse;
  if (next)
    next->prev = &next;
  prev = &v->firstUse;
  v->firstUse = this;
}

void Use::setDetachedName(llvm::StringRef newName) {
  assert(role == UseRole::Detached && !value && "only detached slots hold a name of their own");
  name = newName;
}

unsigned Value::getNumUses() const {
  unsigned n = 0;
  for (Use *u = firstUse; u; u = u->getNext())
    ++n;
  return n;
}

void Value::replaceAllUsesWith(Value *replacement) {
  if (replacement == this)
    return;
  while (firstUse)
    firstUse->set(replacement);
}

const SymValue *Value::getSymMeta() const {
  switch (type) {
  case ValueType::SymInt: return getSymIntMeta();
  case ValueType::SymBool: return getSymBoolMeta();
  case ValueType::SymFloat: return getSymFloatMeta();
  default: return nullptr;
  }
}

void Value::setTensorMeta(TensorMeta m) {
  auto &md = getOrCreateMeta();
  bool isNew = !md.tensor;
  md.tensor = std::make_unique<TensorMeta>(std::move(m));
  if (isNew && graph)
    graph->noteTableEntry(this, ValueTable::Tensor);
}

void Value::setSymMeta(SymValue m) {
  auto &md = getOrCreateMeta();
  std::unique_ptr<SymValue> *slot = nullptr;
  ValueTable table = ValueTable::SymInt;
  switch (type) {
  case ValueType::SymInt: slot = &md.symInt; table = ValueTable::SymInt; break;
  case ValueType::SymBool: slot = &md.symBool; table = ValueTable::SymBool; break;
  case ValueType::SymFloat: slot = &md.symFloat; table = ValueTable::SymFloat; break;
  default: assert(false && "not a symbolic value"); return;
  }
  bool isNew = !*slot;
  *slot = std::make_unique<SymValue>(std::move(m));
  if (isNew && graph)
    graph->noteTableEntry(this, table);
}

} // namespace pt2ir
