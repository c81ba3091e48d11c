import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    for x, y in batches:
        opt.zero_grad()  # .grad accumulates across backward() calls: clear it every step
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
