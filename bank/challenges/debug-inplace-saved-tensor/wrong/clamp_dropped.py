# expect: Wrong Answer
import torch


def focal_loss(logits, y, gamma, eps=1e-3):
    # "fixed" by removing the clamp and using log_softmax: no error, but a different loss
    logp = torch.log_softmax(logits, dim=1).gather(1, y[:, None]).squeeze(1)
    return (-(1 - logp.exp()) ** gamma * logp).mean()


def train(model, batches, lr, gamma):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = focal_loss(model(x), y, gamma)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
