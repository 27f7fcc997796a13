import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def shift_tokens_right(labels: Int[Tensor, "batch tgt"], pad_token_id: int,
                       decoder_start_token_id: int) -> Int[Tensor, "batch tgt"]:
    shifted = labels.new_full(labels.shape, pad_token_id)
    shifted[:, 1:] = labels[:, :-1]
    shifted[:, 0] = decoder_start_token_id
    return shifted.masked_fill(shifted == -100, pad_token_id)


def seq2seq_lm_loss(logits: Float[Tensor, "batch tgt vocab"], labels: Int[Tensor, "batch tgt"]) -> Float[Tensor, ""]:
    valid = labels != -100
    logprobs = logits.log_softmax(dim=-1)
    token_logprobs = logprobs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return -(token_logprobs * valid).sum() / valid.sum()


class TinySpeechSeq2Seq(nn.Module):
    def __init__(self, n_mels: int, d_model: int, vocab_size: int, pad_token_id: int = 0, bos_token_id: int = 1):
        super().__init__()
        self.pad_token_id, self.bos_token_id = pad_token_id, bos_token_id
        self.encoder = nn.GRU(n_mels, d_model, batch_first=True)
        self.embed_tokens = nn.Embedding(vocab_size, d_model)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.proj_out = nn.Linear(d_model, vocab_size)
        self.loss_function = seq2seq_lm_loss

    def forward(self, input_features: Float[Tensor, "batch frames mels"], labels: Int[Tensor, "batch tgt"]):
        _, enc_state = self.encoder(input_features)
        decoder_input_ids = shift_tokens_right(labels, self.pad_token_id, self.bos_token_id)
        dec_out, _ = self.decoder(self.embed_tokens(decoder_input_ids), enc_state)
        logits = self.proj_out(dec_out)
        loss = self.loss_function(logits, labels)
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinySpeechSeq2Seq(n_mels=20, d_model=24, vocab_size=40)
    input_features = torch.randn(3, 30, 20)
    labels = torch.randint(2, 40, (3, 8))
    labels[0, 6:] = -100
    with torch.no_grad():
        loss, logits = model(input_features, labels)
        terms = [-logits[b, t].log_softmax(-1)[labels[b, t]]
                 for b in range(3) for t in range(8) if labels[b, t] != -100]
        ref = torch.stack(terms).mean()
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
