//===- SymExprText.cpp - Verbatim expr_str with a lazily parsed tree ------===//
//
// SymExprText keeps the text an expression was read with so that writers can
// emit it byte for byte (re-printing may change it, see upstream #136802),
// and only prints the tree when a rewrite actually changed it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

namespace pt2ir::sym {

SymExprText SymExprText::fromExpr(Expr expr, Form form) {
  SymExprText result(toString(expr, form));
  result.tree = std::move(expr);
  result.parsed = true;
  return result;
}

llvm::Error SymExprText::ensureParsed() const {
  if (!parsed) {
    parsed = true;
    llvm::Expected<Expr> result = parseSymExpr(text);
    if (result)
      tree = *result;
    else
      parseError = llvm::toString(result.takeError());
  }
  if (tree.isNull())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), parseError);
  return llvm::Error::success();
}

llvm::Expected<Expr> SymExprText::expr() const {
  if (llvm::Error error = ensureParsed())
    return error;
  return tree;
}

std::string SymExprText::str() const {
  if (!modified)
    return text;
  return toString(tree, form());
}

void SymExprText::setExpr(Expr newExpr) {
  // A failed parse leaves no tree to compare against; any new tree counts as
  // a change then.
  if (llvm::Error error = ensureParsed())
    llvm::consumeError(std::move(error));
  if (!tree.isNull() && tree.isSameNode(newExpr))
    return;
  tree = std::move(newExpr);
  modified = true;
}

llvm::Error
SymExprText::renameSymbols(const llvm::StringMap<std::string> &renames) {
  if (llvm::Error error = ensureParsed())
    return error;
  setExpr(sym::renameSymbols(tree, renames));
  return llvm::Error::success();
}

llvm::Error SymExprText::substitute(const llvm::StringMap<Expr> &replacements) {
  if (llvm::Error error = ensureParsed())
    return error;
  llvm::Expected<Expr> result = sym::substitute(tree, replacements);
  if (!result)
    return result.takeError();
  setExpr(*result);
  return llvm::Error::success();
}

} // namespace pt2ir::sym
