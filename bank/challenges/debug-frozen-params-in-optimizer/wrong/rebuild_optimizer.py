# expect: Wrong Answer
import torch
import torch.nn.functional as F


def finetune(model, batches, lr, weight_decay, freeze_after):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    losses = []
    for step, (x, y) in enumerate(batches):
        if step == freeze_after:
            for p in model[0].parameters():
                p.requires_grad_(False)
            # a fresh optimiser over the trainable parameters: the backbone is safe, but the
            # head's Adam moments and step count are thrown away
            opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr,
                                    weight_decay=weight_decay)
        opt.zero_grad(set_to_none=False)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
