# expect: Rule Violation
import torch.nn.functional as F


def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    # zero insertion + full padding + a correctly flipped, regrouped kernel -- but through conv1d
    n, c_in, l_in = x.shape
    _, c_out_g, k = weight.shape
    z = x.new_zeros(n, c_in, (l_in - 1) * stride + 1)
    z[:, :, ::stride] = x
    edge = dilation * (k - 1) - padding
    z = F.pad(z, (edge, edge + output_padding))
    w = weight.reshape(groups, c_in // groups, c_out_g, k).transpose(1, 2).reshape(groups * c_out_g, -1, k)
    return F.conv1d(z, w.flip(-1), bias, 1, 0, dilation, groups)
