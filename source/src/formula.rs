//! Payment formulas, as a payment tag writes them: `formula=Qty * Unit price + 5`.
//!
//! Numbers, field names, `+ - * /`, parentheses, a leading minus, and the functions `round`
//! (to whole units, or to `n` places), `min`, `max`, `abs`, `ceil` and `floor`. A field name
//! is a run of words (`Unit price`), or anything in square brackets (`[Price (EUR)]`) when it
//! holds an operator. Parsed and checked when the template is made; evaluated with payments.

/// The longest formula taken, in characters.
pub const MAX_LEN: usize = 500;
/// How deep parentheses and calls may nest.
const MAX_DEPTH: usize = 32;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    Name(String),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Func {
    Round,
    Min,
    Max,
    Abs,
    Ceil,
    Floor,
}

impl Func {
    fn named(n: &str) -> Option<Func> {
        Some(match n.to_ascii_lowercase().as_str() {
            "round" => Func::Round,
            "min" => Func::Min,
            "max" => Func::Max,
            "abs" => Func::Abs,
            "ceil" => Func::Ceil,
            "floor" => Func::Floor,
            _ => return None,
        })
    }

    /// How many arguments it takes: (least, most).
    fn arity(self) -> (usize, usize) {
        match self {
            Func::Round => (1, 2),
            Func::Min | Func::Max => (1, 20),
            Func::Abs | Func::Ceil | Func::Floor => (1, 1),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Num(f64),
    Word(String),
    Op(char),
    Open,
    Close,
    Comma,
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' => {
                chars.next();
            }
            '+' | '-' | '*' | '/' | '×' | '÷' => {
                chars.next();
                out.push(Token::Op(match c {
                    '×' => '*',
                    '÷' => '/',
                    c => c,
                }));
            }
            '(' => {
                chars.next();
                out.push(Token::Open);
            }
            ')' => {
                chars.next();
                out.push(Token::Close);
            }
            ',' => {
                chars.next();
                out.push(Token::Comma);
            }
            '[' => {
                chars.next();
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some(']') => break,
                        Some(c) => name.push(c),
                        None => return Err("a '[' is not closed".into()),
                    }
                }
                let name = name.trim();
                if name.is_empty() {
                    return Err("'[]' names no field".into());
                }
                out.push(Token::Word(name.to_string()));
            }
            ']' => return Err("a ']' has no '['".into()),
            _ => {
                let mut run = String::new();
                while let Some(&c) = chars.peek() {
                    if "+-*/×÷(),[]".contains(c) {
                        break;
                    }
                    run.push(c);
                    chars.next();
                }
                let run = run.split_whitespace().collect::<Vec<_>>().join(" ");
                let numeric = run.chars().all(|c| c.is_ascii_digit() || c == '.');
                if numeric {
                    let n: f64 = run
                        .parse()
                        .map_err(|_| format!("'{run}' is not a number"))?;
                    out.push(Token::Num(n));
                } else {
                    out.push(Token::Word(run));
                }
            }
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nests deeper than {MAX_DEPTH}"));
        }
        let mut left = self.term()?;
        while let Some(Token::Op(c @ ('+' | '-'))) = self.peek() {
            let op = if *c == '+' { Op::Add } else { Op::Sub };
            self.next();
            let right = self.term()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.factor()?;
        while let Some(Token::Op(c @ ('*' | '/'))) = self.peek() {
            let op = if *c == '*' { Op::Mul } else { Op::Div };
            self.next();
            let right = self.factor()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn factor(&mut self) -> Result<Expr, String> {
        match self.next() {
            Some(Token::Num(n)) => Ok(Expr::Num(n)),
            Some(Token::Op('-')) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(format!("nests deeper than {MAX_DEPTH}"));
                }
                let inner = self.factor()?;
                self.depth -= 1;
                Ok(Expr::Neg(Box::new(inner)))
            }
            Some(Token::Open) => {
                let inner = self.expr()?;
                match self.next() {
                    Some(Token::Close) => Ok(inner),
                    _ => Err("a '(' is not closed".into()),
                }
            }
            Some(Token::Word(w)) => {
                if self.peek() != Some(&Token::Open) {
                    return Ok(Expr::Name(w));
                }
                let func = Func::named(&w).ok_or_else(|| {
                    format!("'{w}' is not a function (round, min, max, abs, ceil, floor)")
                })?;
                self.next();
                let mut args = Vec::new();
                if self.peek() != Some(&Token::Close) {
                    loop {
                        args.push(self.expr()?);
                        match self.next() {
                            Some(Token::Comma) => continue,
                            Some(Token::Close) => break,
                            _ => return Err(format!("{w}( is not closed")),
                        }
                    }
                } else {
                    self.next();
                }
                let (least, most) = func.arity();
                if args.len() < least || args.len() > most {
                    return Err(format!(
                        "{w} takes {} argument{}, not {}",
                        if least == most {
                            least.to_string()
                        } else {
                            format!("{least} to {most}")
                        },
                        if most == 1 { "" } else { "s" },
                        args.len()
                    ));
                }
                Ok(Expr::Call(func, args))
            }
            Some(Token::Op(c)) => Err(format!("'{c}' has nothing before it")),
            Some(Token::Close) => Err("a ')' has no '('".into()),
            Some(Token::Comma) => Err("a ',' is outside a function's parentheses".into()),
            None => Err("ends where a number or a field name should be".into()),
        }
    }
}

/// Parses a formula; the error says what is wrong with it.
pub fn parse(text: &str) -> Result<Expr, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("is empty".into());
    }
    if text.chars().count() > MAX_LEN {
        return Err(format!("is longer than {MAX_LEN} characters"));
    }
    let mut p = Parser {
        tokens: tokens(text)?,
        at: 0,
        depth: 0,
    };
    let e = p.expr()?;
    match p.peek() {
        None => Ok(e),
        Some(Token::Close) => Err("a ')' has no '('".into()),
        Some(t) => Err(format!("has {} where an operator should be", describe(t))),
    }
}

fn describe(t: &Token) -> String {
    match t {
        Token::Num(n) => format!("the number {n}"),
        Token::Word(w) => format!("'{w}'"),
        Token::Op(c) => format!("'{c}'"),
        Token::Open => "'('".into(),
        Token::Close => "')'".into(),
        Token::Comma => "','".into(),
    }
}

impl Expr {
    /// The field names the formula reads, each once, in order.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Num(_) => {}
            Expr::Name(n) => {
                if !out.iter().any(|o| o.eq_ignore_ascii_case(n)) {
                    out.push(n);
                }
            }
            Expr::Neg(e) => e.collect(out),
            Expr::Bin(_, a, b) => {
                a.collect(out);
                b.collect(out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.collect(out)),
        }
    }

    /// The value, with each field's from `value_of`; an error for a missing value or a
    /// division by zero.
    pub fn eval(&self, value_of: &dyn Fn(&str) -> Option<f64>) -> Result<f64, String> {
        let v = match self {
            Expr::Num(n) => *n,
            Expr::Name(n) => value_of(n).ok_or_else(|| format!("'{n}' has no value"))?,
            Expr::Neg(e) => -e.eval(value_of)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(value_of)?, b.eval(value_of)?);
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div if b == 0.0 => return Err("divides by zero".into()),
                    Op::Div => a / b,
                }
            }
            Expr::Call(f, args) => {
                let vals = args
                    .iter()
                    .map(|a| a.eval(value_of))
                    .collect::<Result<Vec<_>, _>>()?;
                match f {
                    Func::Round => {
                        let places = vals.get(1).copied().unwrap_or(0.0).clamp(0.0, 10.0);
                        let scale = 10f64.powi(places as i32);
                        (vals[0] * scale).round() / scale
                    }
                    Func::Min => vals.iter().copied().fold(f64::INFINITY, f64::min),
                    Func::Max => vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    Func::Abs => vals[0].abs(),
                    Func::Ceil => vals[0].ceil(),
                    Func::Floor => vals[0].floor(),
                }
            }
        };
        if v.is_finite() {
            Ok(v)
        } else {
            Err("is not a finite number".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(e: &str, vals: &[(&str, f64)]) -> Result<f64, String> {
        parse(e)?.eval(&|n| {
            vals.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| *v)
        })
    }

    #[test]
    fn formulas_read_as_arithmetic_reads() {
        let vals = [("Qty", 3.0), ("Unit price", 12.5), ("Price (EUR)", 10.0)];
        assert_eq!(value("Qty * Unit price + 5", &vals), Ok(42.5));
        assert_eq!(value("(Qty + 1) * 2 - -1", &vals), Ok(9.0));
        assert_eq!(value("10 / 4 / 5", &vals), Ok(0.5));
        assert_eq!(value("[Price (EUR)] × qty", &vals), Ok(30.0));
        assert_eq!(value("round(Unit price / 3, 2)", &vals), Ok(4.17));
        assert_eq!(
            value("max(Qty, 10, 2) + min(1, 2) + abs(-2)", &vals),
            Ok(13.0)
        );
        assert_eq!(value("ceil(1.2) + floor(1.8)", &vals), Ok(3.0));
        assert_eq!(
            parse("Qty * [Unit price] + Qty").unwrap().names(),
            ["Qty", "Unit price"]
        );
    }

    #[test]
    fn a_formula_that_cannot_be_read_says_why() {
        let why = |e: &str| parse(e).unwrap_err();
        assert_eq!(why(""), "is empty");
        assert_eq!(
            why("Qty *"),
            "ends where a number or a field name should be"
        );
        assert_eq!(why("(Qty + 1"), "a '(' is not closed");
        assert_eq!(why("Qty + 1)"), "a ')' has no '('");
        assert_eq!(why("* 2"), "'*' has nothing before it");
        assert!(why("sqrt(4)").contains("'sqrt' is not a function"));
        assert_eq!(why("round(1, 2, 3)"), "round takes 1 to 2 arguments, not 3");
        assert_eq!(why("abs()"), "abs takes 1 argument, not 0");
        assert_eq!(why("1.2.3"), "'1.2.3' is not a number");
        assert_eq!(why("[Qty"), "a '[' is not closed");
        assert!(why(&"(".repeat(40)).contains("nests deeper than 32"));
        assert!(why(&"-".repeat(40)).contains("nests deeper than 32"));
        assert!(why(&"1+".repeat(300)).contains("longer than 500"));
        assert_eq!(
            value("1 / (Qty - 3)", &[("Qty", 3.0)]),
            Err("divides by zero".into())
        );
        assert_eq!(value("Qty", &[]), Err("'Qty' has no value".into()));
    }
}
