import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import Module

# helper functions

def exists(val):
    return val is not None

def safe_div(num, den, eps = 1e-10):
    return num / max(den, eps)

def log(t, eps = 1e-20):
    return torch.log(t.clamp(min = eps))

def gumbel_noise(t):
    noise = torch.zeros_like(t).uniform_(0, 1)
    return -log(-log(noise))

def gumbel_sample(t, temperature = 1., dim = -1):
    return ((t / max(temperature, 1e-10)) + gumbel_noise(t)).argmax(dim = dim)

def top_k(logits, thres = 0.9):
    k = max(1, int((1 - thres) * logits.shape[-1]))
    val, ind = torch.topk(logits, k)
    probs = torch.full_like(logits, float('-inf'))
    probs.scatter_(-1, ind, val)
    return probs

def find_first_true_index(bool_tensor, dim = -1):
    return (bool_tensor.cumsum(dim = dim) == 0).sum(dim = dim)

# a small causal decoder, used both as the large and the small (draft) network

class Decoder(Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.rnn = nn.GRU(dim, dim, batch_first = True)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        x = self.token_emb(x)          # [B, N, D]
        x, _ = self.rnn(x)             # [B, N, D]
        return self.to_logits(x)       # [B, N, V]

@torch.no_grad()
def speculative_decoding(
    net: Module,
    small_net: Module,
    prompt,
    seq_len,
    gamma = 4,
    temperature = 1.,
    filter_thres = 0.9,
    lenience = 1.,
    pad_id = 0
):
    batch, prompt_seq_len, out, device = *prompt.shape, prompt.clone(), prompt.device

    batch_range = torch.arange(batch, device = device, dtype = torch.long)[..., None]   # [B, 1]
    seq_lens = torch.full((batch,), prompt_seq_len, device = device, dtype = torch.long)

    while (seq_lens < seq_len).any():

        # predict with smaller network

        all_small_logits = []
        q_sampled_out = []

        for _ in range(gamma):
            small_logits = small_net(out)[:, -1]                       # [B, V]
            small_logits = top_k(small_logits, thres = filter_thres)
            all_small_logits.append(small_logits)

            sample = gumbel_sample(small_logits, temperature = temperature, dim = -1)
            out = torch.cat((out, sample[..., None]), dim = -1)
            seq_lens += 1

            q_sampled_out.append(sample[:, None, None])                # [B, 1, 1]

        q_sampled_out = torch.cat(q_sampled_out, dim = -2)             # [B, gamma, 1]
        small_logits = torch.stack(all_small_logits, dim = -2)         # [B, gamma, V]

        # verify with larger network

        logits = net(out)
        logits = logits[..., -(gamma + 1):, :]                         # [B, gamma + 1, V]
        logits = top_k(logits, thres = filter_thres)

        # prob and prob of small model (p(x) and q(x) in algorithm 1)

        prob = safe_div(logits, temperature).softmax(dim = -1)               # [B, gamma + 1, V]
        small_prob = safe_div(small_logits, temperature).softmax(dim = -1)   # [B, gamma, V]

        p, prob_next = prob[:, :-1], prob[:, -1]

        p = p.gather(-1, q_sampled_out)
        q = small_prob.gather(-1, q_sampled_out) * lenience

        p, q = p.squeeze(-1), q.squeeze(-1)                            # [B, gamma]

        r = torch.zeros_like(q).float().uniform_(0, 1)

        accepted = find_first_true_index(r > (p / q))                  # [B]

        num_rejected = gamma - accepted
        has_rejected = num_rejected > 0

        accepted = accepted[:, None]                                   # [B, 1]
        adjusted_prob = F.relu(prob[batch_range, accepted] - small_prob[batch_range, accepted])
        adjusted_prob = adjusted_prob / adjusted_prob.sum(dim = -1, keepdim = True).clamp(min = 1e-10)
        adjusted_prob = adjusted_prob.squeeze(1)                       # [B, V]

        prob_next = torch.where(
            has_rejected[..., None],
            adjusted_prob,
            prob_next
        )

        # do a bunch of slicing and align everything to the right

        max_num_rejected = num_rejected.amax()
        seq_arange = torch.arange(out.shape[-1], device = device, dtype = torch.long)
        seq_offset_indices = seq_arange + (max_num_rejected - num_rejected)[..., None]

        seq_lens -= num_rejected
        max_seq_len = seq_lens.amax()

        if batch > 1:
            out = F.pad(out, (0, int(max_num_rejected)), value = pad_id)
            out = out[batch_range, seq_offset_indices]

            if out.shape[-1] > max_seq_len:
                left_index = out.shape[-1] - max_seq_len
                out = out[:, left_index:]

        # sample the additional token

        next_token = torch.multinomial(prob_next, 1)

        out = torch.cat((out, next_token), dim = -1)
        seq_lens += 1

    return out[..., prompt_seq_len:seq_len]


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens, dim = 64, 32
    net = Decoder(num_tokens, dim).eval()

    # sanity run: the draft network carries the same weights as the verifier,
    # so every speculated token must be accepted
    small_net = Decoder(num_tokens, dim).eval()
    small_net.load_state_dict(net.state_dict())

    prompt = torch.randint(1, num_tokens, (2, 5))
    sampled = speculative_decoding(net, small_net, prompt, seq_len = 16, gamma = 4, temperature = 0.)
    print("sampled:", sampled.tolist())
