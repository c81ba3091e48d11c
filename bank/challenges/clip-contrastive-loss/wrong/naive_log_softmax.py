# expect: Wrong Answer
import math

import torch.nn.functional as F


def clip_loss(image_emb, text_emb, logit_scale):
    img = F.normalize(image_emb, dim=-1)
    txt = F.normalize(text_emb, dim=-1)
    scale = logit_scale.clamp(max=math.log(100)).exp()
    logits = scale * img @ txt.T
    e = logits.exp()  # no max shift: exp(98) is inf in float32
    loss_i = -(e.diagonal() / e.sum(dim=1)).log().mean()
    loss_t = -(e.diagonal() / e.sum(dim=0)).log().mean()
    return (loss_i + loss_t) / 2
