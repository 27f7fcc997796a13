import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def shift_right(input_ids: Int[Tensor, "batch seq"], bos_token_id: int) -> Int[Tensor, "batch seq"]:
    shifted = input_ids.new_full(input_ids.shape, bos_token_id)
    shifted[:, 1:] = input_ids[:, :-1]
    return shifted


class TextEncoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.mix = nn.Linear(2 * hidden, hidden)

    def forward(
        self, question_ids: Int[Tensor, "batch q"], image_embeds: Float[Tensor, "batch hidden"]
    ) -> Float[Tensor, "batch hidden"]:
        q = self.embed(question_ids).mean(dim=1)
        return torch.tanh(self.mix(torch.cat([q, image_embeds], dim=-1)))


class TextLMHeadDecoder(nn.Module):
    """Causal text decoder; its loss shifts internally (position t predicts token t + 1)."""

    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(
        self,
        input_ids: Int[Tensor, "batch seq"],
        context: Float[Tensor, "batch hidden"],
        labels: Int[Tensor, "batch seq"],
    ) -> tuple[Float[Tensor, ""], Float[Tensor, "batch seq vocab"]]:
        out, _ = self.rnn(self.embed(input_ids), context.unsqueeze(0))
        logits = self.lm_head(out)
        logprobs = logits[:, :-1, :].log_softmax(dim=-1)
        targets = labels[:, 1:]
        mask = targets != -100
        token_logprobs = logprobs.gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        loss = -(token_logprobs * mask).sum() / mask.sum()
        return loss, logits


class QuestionAnsweringModel(nn.Module):
    def __init__(self, vocab_size: int, hidden: int, bos_token_id: int, pad_token_id: int):
        super().__init__()
        self.bos_token_id = bos_token_id
        self.pad_token_id = pad_token_id
        self.vision_proj = nn.Linear(24, hidden)
        self.text_encoder = TextEncoder(vocab_size, hidden)
        self.text_decoder = TextLMHeadDecoder(vocab_size, hidden)

    def forward(
        self,
        pixel_features: Float[Tensor, "batch 24"],
        question_ids: Int[Tensor, "batch q"],
        answer_ids: Int[Tensor, "batch a"],
    ) -> Float[Tensor, ""]:
        context = self.text_encoder(question_ids, self.vision_proj(pixel_features))
        labels = answer_ids.masked_fill(answer_ids == self.pad_token_id, -100)
        # the decoder's loss already shifts: feed the answer ids unshifted
        loss, _ = self.text_decoder(answer_ids, context, labels)
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = QuestionAnsweringModel(vocab_size=30, hidden=16, bos_token_id=1, pad_token_id=0)
    pixel_features = torch.randn(2, 24)
    question_ids = torch.randint(3, 30, (2, 6))
    answer_ids = torch.tensor([[1, 7, 12, 9, 2, 0], [1, 15, 4, 2, 0, 0]])  # [BOS] ... [SEP] [PAD]
    loss = model(pixel_features, question_ids, answer_ids)

    # reference: teacher forcing on the answer itself, token t + 1 predicted from answer[:t + 1]
    with torch.no_grad():
        context = model.text_encoder(question_ids, model.vision_proj(pixel_features))
        out, _ = model.text_decoder.rnn(model.text_decoder.embed(answer_ids), context.unsqueeze(0))
        logp = model.text_decoder.lm_head(out).log_softmax(-1)
    terms = [-logp[b, t, answer_ids[b, t + 1]] for b in range(2) for t in range(5) if answer_ids[b, t + 1] != 0]
    reference = torch.stack(terms).mean()
    assert torch.allclose(loss, reference, atol=1e-5)
    print("ok")
