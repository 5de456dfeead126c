//! Binding a component block: its source resolved to a component program (not the program
//! itself, not a cycle of inclusions), its attributes checked against that program's
//! interface, and its type (the program's outputs, shaped by `range`). The interface itself
//! is a query of `crate::component`.

use pcl_diagnostics::Code;
use pcl_hir::Expr;
use pcl_types::{ConstValue, Type};

use super::bind::RangeKind;
use super::Infer;
use crate::component::{
    component_dir, component_interface, inclusion_cycles, normalize, program_at, program_dir,
};
use crate::Target;

impl<'a, 'db> Infer<'a, 'db> {
    /// Binds a component block; returns its type.
    pub(crate) fn bind_component(&mut self) -> Type {
        let options = self.options_block();
        let range = match options {
            Some(options) => self.bind_options(options, None),
            None => RangeKind::None,
        };
        let Some(source) = self.signature.label(1).map(str::to_string) else {
            // Sourceless: `token` names the component type; the other attributes are inputs
            // of their own types. Nothing is known of its outputs.
            self.infer_body_attrs();
            if let Some((_, attr)) = self.body.find_attr(None, "token") {
                let value = attr.value;
                if !matches!(self.body.expr(value), Expr::Literal(ConstValue::String(_))) {
                    self.report(
                        Code::NotALiteral,
                        Target::Expr(value),
                        "attribute `token` must be a literal string",
                    );
                }
            }
            return Type::dynamic();
        };
        let dir = component_dir(self.db, self.program, &source);
        let own_dir = normalize(program_dir(self.program.root(self.db)));
        let program = program_at(self.db, &dir);
        let problem = if dir == own_dir {
            Some(format!(
                "cannot use the program's own directory `{source}` as a component: a component cannot include itself"
            ))
        } else if program == Some(self.program) {
            // The host registered this path as another name of the program (a symbolic link).
            Some(format!(
                "cannot use `{source}` as a component: it is the program itself (through a symbolic link), and a component cannot include itself"
            ))
        } else if let Some(closing) = program.and_then(|_| {
            inclusion_cycles(self.db, pcl_db::workspace(self.db))
                .iter()
                .find(|c| c.from == self.program && c.dir == dir)
        }) {
            let chain: Vec<String> = closing
                .chain
                .iter()
                .map(|root| format!("`{}`", root.display()))
                .collect();
            Some(format!(
                "cannot use `{source}` as a component: it includes this program again, a cycle of components ({}); a component cannot include itself, directly or through others",
                chain.join(" → ")
            ))
        } else if program.is_none() {
            Some(format!(
                "no component program at `{source}` (`{}`): the directory must exist and hold `.pp` files",
                dir.display()
            ))
        } else {
            None
        };
        let program = match (program, problem) {
            (Some(program), None) => program,
            (_, problem) => {
                if let Some(problem) = problem {
                    self.report(Code::InvalidComponent, Target::Label(1), problem);
                }
                self.infer_body_attrs();
                return Type::dynamic();
            }
        };
        if let Some((id, _)) = self.body.find_attr(None, "token") {
            self.report(
                Code::UnsupportedAttribute,
                Target::AttrName(id),
                "unsupported attribute `token` of a component with a source: only a component declared without a source sets `token`",
            );
        }
        let interface = component_interface(self.db, program).clone();
        let inputs = interface.input_object();
        let what = format!("component `{source}`");
        // `token` is reported above; everything else is an input.
        self.check_inputs(&inputs, &what, false, &["token"]);
        range.apply(interface.instance_type())
    }
}
