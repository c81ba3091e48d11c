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
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # treats the symptom; gradients still accumulate
        opt.step()
        losses.append(loss.item())
    return losses
