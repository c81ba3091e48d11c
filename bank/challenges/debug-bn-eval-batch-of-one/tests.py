import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("training-mode", {"n": 2, "c_in": 1, "c": 2, "k": 3, "hw": 4, "train": True}, public=True, seed=1,
             what="two images, model in training mode"),
        Case("eval-mode", {"n": 2, "c_in": 2, "c": 3, "k": 2, "hw": 3, "train": False}, public=True, seed=2,
             what="two images, model already in evaluation mode"),
        Case("brightness", {"n": 2, "c_in": 1, "c": 3, "k": 4, "hw": 5, "train": True, "shifted": True}, seed=3,
             what="an image and a brighter copy must get different predictions"),
        Case("many-requests", {"n": 8, "c_in": 3, "c": 4, "k": 5, "hw": 4, "train": True}, seed=4, shrink=("n",),
             what="eight requests in a row do not change the running statistics"),
        Case("eval-many", {"n": 5, "c_in": 2, "c": 2, "k": 3, "hw": 6, "train": False}, seed=5, shrink=("n",),
             what="evaluation mode stays evaluation mode"),
        Case("one-pixel", {"n": 3, "c_in": 2, "c": 3, "k": 2, "hw": 1, "train": False}, seed=6, shrink=("n",),
             what="1x1 images"),
        Case("single-request", {"n": 1, "c_in": 1, "c": 4, "k": 6, "hw": 7, "train": True}, seed=7,
             what="one request, then training continues"),
    ]


def make_inputs(seed, n, c_in, c, k, hw, train, shifted=False):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0, shift=0.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale + shift

    images = rnd(n, c_in, hw, hw, shift=0.3)
    if shifted:
        images[1] = images[0] + 0.5
    return {"images": images, "start_training": train,
            "0.weight": rnd(c, c_in, 3, 3, scale=(9 * c_in) ** -0.5), "0.bias": rnd(c, scale=0.1),
            "1.weight": 1 + rnd(c, scale=0.2), "1.bias": rnd(c, scale=0.2),
            "1.running_mean": rnd(c, scale=0.5), "1.running_var": 0.5 + torch.rand(c, generator=g, dtype=torch.float64),
            "1.num_batches_tracked": torch.tensor(100), "5.weight": rnd(k, c, scale=c ** -0.5),
            "5.bias": rnd(k, scale=0.1)}


def check(inputs, got):
    if got["attached_to_graph"]:
        return ("predict returned a tensor attached to the autograd graph: inference should run under "
                "torch.no_grad() or torch.inference_mode()")
    if got["training_after"] != inputs["start_training"]:
        return (f"the model was {'in training' if inputs['start_training'] else 'in evaluation'} mode before predict "
                f"and is {'in training' if got['training_after'] else 'in evaluation'} mode after it")
    if not got["params_trainable_after"]:
        return "after predict some parameters no longer require grad: training cannot continue"
    return None  # wrong statistics show in 'probs', updated buffers in 'final.1.running_*'


def oracle(inputs):
    """The network written out with functional calls and the BatchNorm formula on the running stats."""
    import torch.nn.functional as F

    x = F.conv2d(inputs["images"], inputs["0.weight"], inputs["0.bias"], padding=1)
    rm, rv = inputs["1.running_mean"].view(1, -1, 1, 1), inputs["1.running_var"].view(1, -1, 1, 1)
    x = (x - rm) / torch.sqrt(rv + 1e-5) * inputs["1.weight"].view(1, -1, 1, 1) + inputs["1.bias"].view(1, -1, 1, 1)
    x = torch.relu(x).mean(dim=(2, 3))
    logits = x @ inputs["5.weight"].T + inputs["5.bias"]
    z = logits - logits.amax(dim=1, keepdim=True)
    out = {"probs": z.exp() / z.exp().sum(dim=1, keepdim=True), "attached_to_graph": False,
           "training_after": inputs["start_training"], "params_trainable_after": True}
    for key in ("0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked",
                "5.weight", "5.bias"):
        out[f"final.{key}"] = inputs[key]
    return out
