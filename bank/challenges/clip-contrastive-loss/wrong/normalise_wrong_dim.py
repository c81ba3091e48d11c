# expect: Wrong Answer
import math

import torch
import torch.nn.functional as F


def clip_loss(image_emb, text_emb, logit_scale):
    img = F.normalize(image_emb, dim=0)  # normalises each feature over the batch
    txt = F.normalize(text_emb, dim=0)
    scale = logit_scale.clamp(max=math.log(100)).exp()
    logits = scale * img @ txt.T
    labels = torch.arange(logits.shape[0])
    loss_i = F.cross_entropy(logits, labels)
    loss_t = F.cross_entropy(logits.T, labels)
    return (loss_i + loss_t) / 2
