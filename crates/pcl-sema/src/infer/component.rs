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
        let program = match source_program(self.db, self.program, &source) {
            Ok(program) => program,
            Err(problem) => {
                self.report(Code::InvalidComponent, Target::Label(1), problem);
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

/// The component program a block's source names, or why there is none (reported at the
/// source label; the block is then `dynamic`). One home for the rule, read by the binding of
/// the block and by [`interface_type`].
fn source_program(
    db: &dyn pcl_db::Db,
    including: pcl_db::Program,
    source: &str,
) -> Result<pcl_db::Program, String> {
    let dir = component_dir(db, including, source);
    let own_dir = normalize(program_dir(including.root(db)));
    let program = program_at(db, &dir);
    if dir == own_dir {
        return Err(format!(
            "cannot use the program's own directory `{source}` as a component: a component cannot include itself"
        ));
    }
    if program == Some(including) {
        // The host registered this path as another name of the program (a symbolic link).
        return Err(format!(
            "cannot use `{source}` as a component: it is the program itself (through a symbolic link), and a component cannot include itself"
        ));
    }
    let Some(program) = program else {
        return Err(format!(
            "no component program at `{source}` (`{}`): the directory must exist and hold `.pp` files",
            dir.display()
        ));
    };
    if let Some(closing) = inclusion_cycles(db, pcl_db::workspace(db))
        .iter()
        .find(|c| c.from == including && c.dir == dir)
    {
        let chain: Vec<String> = closing
            .chain
            .iter()
            .map(|root| format!("`{}`", root.display()))
            .collect();
        return Err(format!(
            "cannot use `{source}` as a component: it includes this program again, a cycle of components ({}); a component cannot include itself, directly or through others",
            chain.join(" → ")
        ));
    }
    Ok(program)
}

/// The type of a component block whose type depends on nothing in its body: one with a source
/// naming a component program and no `range` option is that program's outputs, whatever its
/// inputs. Other nodes read it without inferring the block, so components that use each
/// other's outputs (which the reference allows) are each checked in full (typed through each
/// other's inference, they formed a cycle, and both were `dynamic` and unchecked). `None` for
/// any other component, typed by its inference.
pub(crate) fn interface_type(db: &dyn pcl_db::Db, node: pcl_hir::Node<'_>) -> Option<Type> {
    let source = node.signature(db).label(1)?;
    let body = node.body(db);
    if body.range_option().is_some() {
        return None;
    }
    let program = source_program(db, node.file(db).program(db), source).ok()?;
    Some(component_interface(db, program).instance_type())
}
