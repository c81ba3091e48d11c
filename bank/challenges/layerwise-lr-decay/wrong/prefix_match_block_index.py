# expect: Wrong Answer
from torch import nn

NORMS = (nn.LayerNorm, nn.RMSNorm)


def layer_id(name: str, num_blocks: int) -> int:
    parts = name.split(".")
    if parts[0] == "embed":
        return 0
    for i in range(num_blocks):
        if name.startswith(f"blocks.{i}"):  # "blocks.10.qkv.weight" starts with "blocks.1"
            return i + 1
    return num_blocks + 1  # final norm, head, anything else on top


def layerwise_param_groups(model, lr, decay, weight_decay):
    num_blocks = len(model.blocks)
    no_decay = {f"{mn}.{pn}" if mn else pn for mn, m in model.named_modules() if isinstance(m, NORMS)
                for pn, _ in m.named_parameters(recurse=False)}
    groups: dict[tuple[int, bool], dict] = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue  # frozen: not in any group
        lid = layer_id(name, num_blocks)
        skip_wd = name.endswith(".bias") or name in no_decay
        g = groups.setdefault((lid, skip_wd), {"params": [], "names": [], "lr": lr * decay ** (num_blocks + 1 - lid),
                                               "weight_decay": 0.0 if skip_wd else weight_decay})
        g["params"].append(p)
        g["names"].append(name)
    return list(groups.values())
