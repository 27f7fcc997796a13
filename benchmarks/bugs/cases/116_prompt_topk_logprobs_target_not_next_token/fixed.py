import torch
import torch.nn as nn


def prompt_logprobs_topk(context_logits, prompt_token_ids, k):
    """OpenAI-style prompt log-probabilities.

    Args:
        context_logits (`torch.FloatTensor` of shape `(prompt_len, vocab_size)`):
            Logits of the context phase; row `t` is the distribution predicted after reading tokens `0..t`.
        prompt_token_ids (`torch.LongTensor` of shape `(prompt_len,)`):
            The prompt.
        k (`int`):
            Number of most likely alternatives reported per position.

    Returns:
        `list[dict[int, float]]` of length `prompt_len`: for row `t`, the top-`k` token ids with their
        log-probabilities plus the prompt token that row actually predicts.
    """
    logprobs = context_logits.log_softmax(dim=-1)
    top_vals, top_ids = logprobs.topk(k, dim=-1)
    targets = prompt_token_ids[1:]
    target_logprobs = logprobs[:-1].gather(1, targets.unsqueeze(1)).squeeze(1)
    entries = []
    for t in range(context_logits.size(0)):
        entry = dict(zip(top_ids[t].tolist(), top_vals[t].tolist()))
        if t < target_logprobs.size(0):
            entry[int(targets[t])] = float(target_logprobs[t])
        entries.append(entry)
    return entries


class ContextEncoder(nn.Module):
    """Causal model used for the context phase.

    Args:
        vocab_size (`int`): vocabulary size.
        hidden_size (`int`): width of the recurrent state.
    """

    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.head = nn.Linear(hidden_size, vocab_size)

    def forward(self, prompt_token_ids):
        """
        Args:
            prompt_token_ids (`torch.LongTensor` of shape `(prompt_len,)`)

        Returns:
            `torch.FloatTensor` of shape `(prompt_len, vocab_size)`.
        """
        hidden, _ = self.rnn(self.embed(prompt_token_ids).unsqueeze(0))
        return self.head(hidden).squeeze(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.set_grad_enabled(False)  # serving path
    model = ContextEncoder(vocab_size=64, hidden_size=16)
    prompt = torch.tensor([15, 52, 49, 30, 7, 21])
    entries = prompt_logprobs_topk(model(prompt), prompt, k=3)
    logprobs = model(prompt).log_softmax(-1)
    wrong = 0
    for t, entry in enumerate(entries[:-1]):
        nxt = int(prompt[t + 1])
        if nxt not in entry or abs(entry[nxt] - float(logprobs[t, nxt])) > 1e-6:
            wrong += 1
    assert wrong == 0
    assert all(len(e) <= 4 for e in entries) and len(entries[-1]) == 3
    print("ok")
