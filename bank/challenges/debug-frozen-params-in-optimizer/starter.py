import torch
import torch.nn.functional as F


def finetune(model, batches, lr, weight_decay, freeze_after):
    """Train the whole model for `freeze_after` steps, then freeze the backbone (model[0]) and keep
    training the head. One AdamW step per batch; returns every step's loss."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    losses = []
    for step, (x, y) in enumerate(batches):
        if step == freeze_after:
            for p in model[0].parameters():
                p.requires_grad_(False)
        opt.zero_grad(set_to_none=False)  # keep the .grad tensors allocated between steps
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
