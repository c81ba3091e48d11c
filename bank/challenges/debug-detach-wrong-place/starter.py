import torch
import torch.nn.functional as F


def distill(student, teacher, batches, lr, temperature, alpha):
    """Train `student` to match a fixed, pre-trained `teacher` (soft targets) and the labels."""
    opt = torch.optim.SGD(student.parameters(), lr=lr)
    teacher.eval()
    T = temperature
    losses = []
    for x, y in batches:
        opt.zero_grad()
        s_logits = student(x).detach()  # the teacher must not be trained
        t_logits = teacher(x)
        soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                        reduction="batchmean") * T * T
        hard = F.cross_entropy(s_logits, y)
        loss = alpha * soft + (1 - alpha) * hard
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
