"""Stateless transducer decoder (prediction network) used by beam search."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, vocab_size, decoder_dim, blank_id, context_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, decoder_dim)
        self.blank_id = blank_id
        self.context_size = context_size
        self.conv = nn.Conv1d(decoder_dim, decoder_dim, kernel_size=context_size, groups=decoder_dim // 4, bias=False)

    def forward(self, y, need_pad=True):
        y = y.to(torch.int64)
        embedding_out = self.embedding(y.clamp(min=0)) * (y >= 0).unsqueeze(-1)
        embedding_out = embedding_out.permute(0, 2, 1)
        if need_pad:
            embedding_out = F.pad(embedding_out, pad=(self.context_size - 1, 0))
        embedding_out = self.conv(embedding_out)
        return F.relu(embedding_out.permute(0, 2, 1))


def build_model(params):
    return Decoder(params["vocab_size"], params["decoder_dim"], params["blank_id"], params["context_size"])


def initial_decoder_out(decoder, num_hyps, params):
    # at utterance start the left context is filled with -1 so that it differs from blank
    hyp = [-1] * (params["context_size"] - 1) + [params["blank_id"]]
    decoder_input = torch.tensor([hyp] * num_hyps)
    return decoder(decoder_input, need_pad=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    params = {"vocab_size": 500, "decoder_dim": 16, "blank_id": 0, "context_size": 2}
    decoder = build_model(params)
    with torch.no_grad():
        out = initial_decoder_out(decoder, num_hyps=4, params=params)
    hyp = [-1] * (params["context_size"] - 1) + [params["blank_id"]]
    W = decoder.embedding.weight.detach()
    emb = torch.stack([W[t] if t >= 0 else torch.zeros(params["decoder_dim"]) for t in hyp])
    ref = torch.zeros(params["decoder_dim"])
    group = params["decoder_dim"] // (params["decoder_dim"] // 4)
    kernel = decoder.conv.weight.detach()
    for o in range(params["decoder_dim"]):
        g = o // group
        for ci in range(group):
            for k in range(params["context_size"]):
                ref[o] += kernel[o, ci, k] * emb[k, g * group + ci]
    ref = ref.relu()
    assert out.shape == (4, 1, params["decoder_dim"])
    for h in range(4):
        assert torch.allclose(out[h, 0], ref, atol=1e-5)
    print("ok")
