# expect: Wrong Answer
import torch
import torch.nn.functional as F


def finetune(model, batches, lr, weight_decay, freeze_after):
    opt = torch.optim.AdamW([{"params": model[0].parameters()}, {"params": model[2].parameters()}],
                            lr=lr, weight_decay=weight_decay)
    losses = []
    for step, (x, y) in enumerate(batches):
        if step == freeze_after:
            for p in model[0].parameters():
                p.requires_grad_(False)
            opt.param_groups[0]["weight_decay"] = 0.0  # stops the shrinking, not Adam's momentum
        opt.zero_grad(set_to_none=False)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
