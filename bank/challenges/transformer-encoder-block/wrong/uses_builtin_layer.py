# expect: Rule Violation
import torch.nn as nn


class EncoderBlock(nn.Module):
    def __init__(self, d_model, n_head, d_ff, dropout=0.0):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model, n_head, d_ff, dropout, activation="gelu",
                                                batch_first=True, norm_first=True)

    def forward(self, x, key_padding_mask=None):
        return self.layer(x, src_key_padding_mask=key_padding_mask)
