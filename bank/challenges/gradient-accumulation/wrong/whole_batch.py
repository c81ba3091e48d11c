# expect: Rule Violation
def train_step(model, optimizer, loss_fn, x, y, micro_batch_size):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)  # correct numbers, but the whole batch goes through at once
    loss.backward()
    optimizer.step()
    return loss.item()
