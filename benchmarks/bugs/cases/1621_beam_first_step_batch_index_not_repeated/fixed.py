import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPT(nn.Module):
    def __init__(self, vocab_size=40, n_embd=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.mix = nn.GRU(n_embd, n_embd, batch_first=True)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids):
        h, _ = self.mix(self.wte(input_ids))
        return self.lm_head(h)


def last_prompt_logits(logits, query_len, batch_size, num_beams):
    """Pick, for every beam, the logits predicted after the last prompt token.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size * num_beams, seq_len, vocab_size)`):
            Language-model logits for the beam-expanded (right-padded) prompts.
        query_len (`torch.LongTensor` of shape `(batch_size * num_beams,)`):
            Length of every prompt, repeated for each of its beams.
        batch_size (`int`):
            Number of distinct prompts.
        num_beams (`int`):
            Beam width; every prompt occupies `num_beams` consecutive rows.

    Returns:
        `torch.FloatTensor` of shape `(batch_size * num_beams, vocab_size)`.
    """
    # one row per beam: the rows of `logits` are already beam-expanded
    rows = torch.arange(0, batch_size * num_beams, device=logits.device, dtype=torch.long)
    return logits[rows, (query_len - 1).long(), :]


def beam_first_step(model, query, query_len, num_beams):
    """Run the first beam-search step.

    Args:
        query (`torch.LongTensor` of shape `(batch_size, seq_len)`): right-padded prompts.
        query_len (`torch.LongTensor` of shape `(batch_size,)`): prompt lengths.
        num_beams (`int`): beam width.

    Returns:
        Tuple of `(next_scores, next_tokens)`, both of shape `(batch_size, num_beams)`.
    """
    batch_size = query.size(0)
    query = query.repeat(1, num_beams).view(batch_size * num_beams, -1)
    query_len = query_len.unsqueeze(-1).repeat(1, num_beams).view(-1)
    logits = model(query)
    logits = last_prompt_logits(logits, query_len, batch_size, num_beams)
    logprob = F.log_softmax(logits, dim=-1)
    # every beam of a prompt is identical at step 0: take the first one
    next_scores = logprob.view(batch_size, num_beams, -1)[:, 0, :]
    return torch.topk(next_scores, num_beams, dim=1, largest=True, sorted=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyGPT()
    query = torch.tensor([[3, 17, 9, 0, 0], [12, 5, 6, 30, 8]])
    query_len = torch.tensor([3, 5])
    scores, tokens = beam_first_step(model, query, query_len, num_beams=3)

    with torch.no_grad():
        for b in range(query.size(0)):
            ids = query[b, : int(query_len[b])].unsqueeze(0)
            ref = F.log_softmax(model(ids)[0, -1], dim=-1)
            ref_scores, ref_tokens = torch.topk(ref, 3)
            assert tokens[b].tolist() == ref_tokens.tolist()
            assert torch.allclose(scores[b], ref_scores, atol=1e-5)
    print("ok")
