from torchdojo.judge.testing import Case


def cases():
    return [
        Case("transformer", {"model": "lm", "weight_decay": 0.1}, seed=1, public=True,
             what="embeddings, LayerNorm, RMSNorm, biases, a bare positional parameter"),
        Case("convnet", {"model": "convnet", "weight_decay": 0.05}, seed=2, public=True,
             what="Conv2d, BatchNorm2d, GroupNorm, Linear"),
        Case("decay-embeddings", {"model": "lm", "weight_decay": 0.1, "kwargs": {"decay_embeddings": True}}, seed=3,
             what="decay_embeddings=True: the embedding goes back to the decay group"),
        Case("tied-head", {"model": "tied-lm", "weight_decay": 0.2}, seed=4,
             what="a head tied to the embedding: one parameter, one group, classified by its first owner"),
        Case("one-d-not-a-norm", {"model": "layerscale", "weight_decay": 0.3}, seed=5,
             what="a 1-D learnable scale that is not a norm is decayed (ndim < 2 is not the rule)"),
        Case("frozen", {"model": "frozen-embed", "weight_decay": 0.1}, seed=6,
             what="requires_grad=False parameters are in no group"),
        Case("large-decay", {"model": "lm", "weight_decay": 5.0, "lr": 0.1}, seed=7,
             what="a large weight decay makes misplaced parameters obvious after the step"),
    ]


def make_inputs(seed, model, weight_decay, kwargs=None, lr=0.01):
    return {"model": model, "weight_decay": weight_decay, "kwargs": dict(kwargs or {}), "lr": lr, "seed": seed}


def oracle(inputs):
    """The same harness, with the owner of each parameter found from its name (get_submodule of the prefix)."""
    import types
    from pathlib import Path

    import torch.nn as nn

    mod = types.ModuleType("wd_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    norm_types = (nn.LayerNorm, nn.RMSNorm, nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.GroupNorm)

    def groups(model, weight_decay, decay_embeddings=False):
        out = [{"params": [], "names": [], "weight_decay": weight_decay},
               {"params": [], "names": [], "weight_decay": 0.0}]
        for name, p in model.named_parameters():
            if not p.requires_grad:
                continue
            prefix, _, attr = name.rpartition(".")
            owner = model.get_submodule(prefix)
            no = attr == "bias" or isinstance(owner, norm_types) or (
                isinstance(owner, nn.Embedding) and not decay_embeddings)
            out[1 if no else 0]["params"].append(p)
            out[1 if no else 0]["names"].append(name)
        return out

    return mod.run(types.SimpleNamespace(build_param_groups=groups), inputs)
