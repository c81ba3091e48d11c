# expect: Wrong Answer
import torch
import torch.nn.functional as F


def finetune(model, batches, lr, weight_decay, freeze_after):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    losses = []
    for step, (x, y) in enumerate(batches):
        if step == freeze_after + 1:  # off by one: step freeze_after still trains the backbone
            for p in model[0].parameters():
                p.requires_grad_(False)
        # set_to_none (the default): a frozen parameter's .grad becomes None and stays None, and
        # AdamW skips parameters without a gradient; a zero-filled .grad would still get the
        # momentum and weight-decay update
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
