# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    opt.zero_grad()  # cleared once, before the loop: still accumulates from step 2 on
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
