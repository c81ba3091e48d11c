# expect: Wrong Answer
import torch.nn as nn

NORMS = (nn.LayerNorm, nn.RMSNorm, nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.GroupNorm)


def build_param_groups(model, weight_decay, decay_embeddings=False):
    owner = {}  # parameter -> the module that registered it (first seen, as named_parameters dedups)
    for module in model.modules():
        for p in module.parameters(recurse=False):
            owner.setdefault(p, module)
    decay, no_decay = ([], []), ([], [])
    for name, p in model.named_parameters():  # each shared (tied) parameter once, under its first name
        if not p.requires_grad:
            continue
        mod = owner[p]
        skip = (name.rsplit(".", 1)[-1] == "bias" or isinstance(mod, NORMS)
                or (isinstance(mod, nn.Embedding) and not decay_embeddings))
        group = no_decay if skip else decay
        group[0].append(name)
        group[1].append(p)
    return [{"params": decay[1], "names": decay[0], "weight_decay": weight_decay},
            {"params": no_decay[1], "names": no_decay[0], "weight_decay": weight_decay}]  # copy-paste: the no-decay group decays too
