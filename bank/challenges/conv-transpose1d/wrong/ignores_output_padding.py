# expect: Wrong Answer
import torch


def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    n, c_in, l_in = x.shape
    _, c_out_g, k = weight.shape
    l_full = (l_in - 1) * stride + dilation * (k - 1) + 1  # output_padding forgotten
    xg = x.reshape(n, groups, c_in // groups, l_in)
    wg = weight.reshape(groups, c_in // groups, c_out_g, k)
    contrib = torch.einsum("ngcl,gcok->ngokl", xg, wg)
    pos = torch.arange(k)[:, None] * dilation + torch.arange(l_in) * stride
    y = x.new_zeros(n, groups, c_out_g, l_full).index_add(3, pos.reshape(-1),
                                                          contrib.reshape(n, groups, c_out_g, -1))
    y = y.reshape(n, -1, l_full)[:, :, padding:l_full - padding]
    return y if bias is None else y + bias[:, None]
