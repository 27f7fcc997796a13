import torch
import torch.nn as nn


class TransformerDecoderFrontend(nn.Module):
    """Token embedding + positional scaling for an attention decoder (ESPnet-style token list).

    The token list is ["<blank>", "<unk>", ..., "<sos/eos>"]: there is no <pad> entry, so padded
    decoder inputs are filled with eos and masked later.
    """

    def __init__(self, vocab_size, attention_dim, padding_idx=-1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, attention_dim, padding_idx=padding_idx)
        self.scale = attention_dim ** 0.5

    def forward(self, ys_in_pad):
        return self.embed(ys_in_pad) * self.scale


def add_sos_eos(ys_pad, sos, eos, ignore_id=-1):
    ys = [y[y != ignore_id] for y in ys_pad]
    ys_in = [torch.cat([torch.tensor([sos]), y]) for y in ys]
    ys_out = [torch.cat([y, torch.tensor([eos])]) for y in ys]
    max_len = max(len(y) for y in ys_in)
    ys_in_pad = torch.full((len(ys), max_len), eos, dtype=torch.long)
    ys_out_pad = torch.full((len(ys), max_len), ignore_id, dtype=torch.long)
    for i, (a, b) in enumerate(zip(ys_in, ys_out)):
        ys_in_pad[i, : len(a)] = a
        ys_out_pad[i, : len(b)] = b
    return ys_in_pad, ys_out_pad


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 12
    sos = eos = vocab_size - 1
    frontend = TransformerDecoderFrontend(vocab_size, attention_dim=8)
    ys_pad = torch.tensor([[3, 4, 5, -1], [6, 2, 7, 9]])
    ys_in_pad, _ = add_sos_eos(ys_pad, sos, eos)
    emb = frontend(ys_in_pad)
    emb.sum().backward()
    print("padding_idx resolved to:", frontend.embed.padding_idx)
    print("norm of the <sos> input embedding:", emb[:, 0].norm().item())
    print("grad norm of the <sos/eos> row:", frontend.embed.weight.grad[sos].norm().item())
