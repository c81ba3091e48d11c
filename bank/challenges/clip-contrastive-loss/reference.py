import math

import torch
import torch.nn.functional as F


def clip_loss(image_emb, text_emb, logit_scale):
    img = F.normalize(image_emb, dim=-1)  # unit rows: the dot products are cosine similarities
    txt = F.normalize(text_emb, dim=-1)
    scale = logit_scale.clamp(max=math.log(100)).exp()  # in the graph: no gradient once clamped
    logits = scale * img @ txt.T  # (N, N): row i = image i against every text; pairs on the diagonal
    labels = torch.arange(logits.shape[0], device=logits.device)
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
