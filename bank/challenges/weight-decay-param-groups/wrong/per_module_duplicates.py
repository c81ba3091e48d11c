# expect: Runtime Error
import torch.nn as nn

NORMS = (nn.LayerNorm, nn.RMSNorm, nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.GroupNorm)


def build_param_groups(model, weight_decay, decay_embeddings=False):
    # walks every module's own parameters: a tied weight is seen twice (Embedding, then Linear head)
    decay, no_decay = ([], []), ([], [])
    for mname, module in model.named_modules():
        for pname, p in module.named_parameters(recurse=False):
            if not p.requires_grad:
                continue
            skip = pname == "bias" or isinstance(module, NORMS) or (
                isinstance(module, nn.Embedding) and not decay_embeddings)
            group = no_decay if skip else decay
            group[0].append(f"{mname}.{pname}" if mname else pname)
            group[1].append(p)
    return [{"params": decay[1], "names": decay[0], "weight_decay": weight_decay},
            {"params": no_decay[1], "names": no_decay[0], "weight_decay": 0.0}]
