# expect: Wrong Answer
import torch
import torch.nn.functional as F


def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    n, c_in, l_in = x.shape
    _, c_out_g, k = weight.shape
    z = x.new_zeros(n, c_in, (l_in - 1) * stride + 1)
    z[:, :, ::stride] = x  # insert stride - 1 zeros between samples
    edge = dilation * (k - 1) - padding
    z = F.pad(z, (edge, edge + output_padding))
    win = z.unfold(2, dilation * (k - 1) + 1, 1)[..., ::dilation]  # (N, C_in, L_out, K)
    win = win.reshape(n, groups, c_in // groups, win.shape[2], k)
    wg = weight.reshape(groups, c_in // groups, c_out_g, k)  # kernel not flipped
    y = torch.einsum("ngclk,gcok->ngol", win, wg).reshape(n, groups * c_out_g, -1)
    return y if bias is None else y + bias[:, None]
