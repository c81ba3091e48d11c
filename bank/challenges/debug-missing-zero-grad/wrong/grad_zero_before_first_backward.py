# expect: Runtime Error
import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    for x, y in batches:
        for p in model.parameters():
            p.grad.zero_()  # .grad is None until the first backward()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
