# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    model.train()
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.zero_grad()  # wipes the fresh gradients before the step uses them: nothing is learned
        opt.step()
        losses.append(loss.item())
    return losses
