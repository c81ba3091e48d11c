# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    for x, y in batches:
        # a fresh optimiser per step has clean gradients, but its momentum buffer starts at zero every time
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        opt.zero_grad()  # .grad accumulates across backward() calls: clear it every step
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
