# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    for x, y in batches:
        model[-1].zero_grad()  # only the output layer: the hidden layer's .grad still accumulates
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
