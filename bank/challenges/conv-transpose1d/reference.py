import torch


def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    n, c_in, l_in = x.shape
    _, c_out_g, k = weight.shape
    c_in_g = c_in // groups
    l_full = (l_in - 1) * stride + dilation * (k - 1) + 1 + output_padding  # before cropping `padding` per side
    l_out = l_full - 2 * padding
    # every (input position i, tap j) pair writes x[i] * w[j] to output position i*stride + j*dilation
    xg = x.reshape(n, groups, c_in_g, l_in)
    wg = weight.reshape(groups, c_in_g, c_out_g, k)
    contrib = torch.einsum("ngcl,gcok->ngokl", xg, wg)  # (N, G, C_out/G, K, L_in)
    pos = torch.arange(k, device=x.device)[:, None] * dilation + torch.arange(l_in, device=x.device) * stride
    y = x.new_zeros(n, groups, c_out_g, l_full)
    y = y.index_add(3, pos.reshape(-1), contrib.reshape(n, groups, c_out_g, k * l_in))  # overlaps accumulate
    y = y.reshape(n, groups * c_out_g, l_full)[:, :, padding:padding + l_out]
    if bias is not None:
        y = y + bias[:, None]
    return y
