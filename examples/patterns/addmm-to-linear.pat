// Turns a transposed weight feeding addmm (what torch.export records for
// nn.Linear in training graphs) into one aten.linear call.
pattern addmm-to-linear {
  match(%bias, %x, %w) {
    %wt = aten.t.default(%w)
    %out = aten.addmm.default(%bias, %x, %wt)
    return %out
  }
  replace {
    %lin = aten.linear.default(%x, %w, %bias)
    return %lin
  }
}
